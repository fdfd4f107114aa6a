#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 01 in the guest: compare what formats.sh in DIR prints with the
# kernel's format files, read here by another parser. What it is asked is
# chosen per run: a sub-buffer size, the events (one with a fixed-size array
# field, one with a digit in a field name), IDs (one that other IDs start
# with) and, on copies in a folder of its own (TRACEFS): header_event with
# other numbers, header_page with types of more than one word, and an
# event whose print fmt has "ID:" in it.
#   sh check.sh DIR
SUITE=${SUITE:-labs/01-tracefs}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" formats.sh step-1-header-page
ev=$TRACEFS/events
fake=/tmp/lab01-tracefs
LAB_CLEANUP="rm -rf $fake"

# fields FILE: "NAME OFFSET SIZE" for each "field:" line of a format file.
fields() {
	awk -F';' '/^[ \t]*field:/ {
		decl = $1; sub(/.*field: ?/, "", decl); sub(/\[[0-9]*\]$/, "", decl)
		n = split(decl, w, /[ *]+/); name = w[n]
		off = $2; sub(/.*offset:/, "", off); size = $3; sub(/.*size:/, "", size)
		print name, off, size
	}' "$1"
}

# pick: one of the lines of stdin, chosen per run (nothing for no lines).
pick() {
	local all n
	all=$(cat)
	[ -n "$all" ] || return 0
	n=$(printf '%s\n' "$all" | wc -l)
	printf '%s\n' "$all" | sed -n "$(rand 1 "$n")p"
}

# name FILE: SYS/NAME of an event's format file.
name() {
	local e=${1#$ev/}
	echo "${e%/format}"
}

# step NAME HINT WANT ARGS...: run formats.sh ARGS (with TRACEFS=$tracefs
# when that is set) and compare with WANT; false when they differ.
tracefs=
step() {
	local name=$1 hint=$2 want=$3
	shift 3
	if [ -n "$tracefs" ]; then
		run_prog 20 env TRACEFS="$tracefs" sh "$dir/formats.sh" "$@"
	else
		run_prog 20 sh "$dir/formats.sh" "$@"
	fi
	[ "$prog_out" = "$want" ] && return 0
	fail "$name" "$hint; $(first_diff "$want" "$prog_out")"
	return 1
}

# Step 1: header_page at the default sub-buffer size, then at another one
# (data's size is the sub-buffer's capacity), then (TRACEFS=$fake) a copy
# of it whose types are of more than one word, chosen per run, as in event
# formats ("unsigned long long timestamp"): the name is the last word.
mkdir -p $fake/events
awk -v seed="$(rand 1 1000000)" 'BEGIN {
	srand(seed)
	t[8] = "unsigned long long|long long|unsigned long|long unsigned int"
	t[4] = "unsigned int|signed int"
	t[1] = "unsigned char|signed char"
}
/^[ \t]*field:/ {
	s = $0; sub(/.*size:/, "", s); s += 0
	n = split(t[(s in t) ? s : 1], c, "|")
	if (!sub(/field: [^;]* /, "field: " c[1 + int(rand() * n)] " "))
		sub(/field: [^;]*\*/, "field: " c[1 + int(rand() * n)] " *")
}
{ print }' "$ev/header_page" >$fake/events/header_page
# page_hint: when the first line that differs from the copy's has for its
# name a word of the field's type, say so.
page_hint() {
	local n g d
	n=$(first_diff "$1" "$prog_out" | sed 's/^line \([0-9]*\):.*/\1/')
	g=$(printf '%s\n' "$prog_out" | sed -n "${n}s/ .*//p")
	d=$(grep 'field:' $fake/events/header_page | sed -n "${n}s/.*field: *\([^;]*\);.*/\1/p")
	case " ${d% *} " in
	*" $g "*) [ -n "$g" ] && echo "for 'field: $d;' it printed the name '$g', a word of the type: a type can be of more than one word (as in event formats), the name is the last word before ';'" && return ;;
	esac
	echo "a copy of header_page whose types are of more than one word, such as 'field: $(grep -m1 'field:' $fake/events/header_page | sed 's/.*field: *\([^;]*\);.*/\1/')': the name is the last word before ';'"
}
kb=$(echo "8 16 32 64" | tr ' ' '\n' | pick)
step step-1-header-page "each 'field:' line of events/header_page gives NAME OFFSET SIZE" \
	"$(fields "$ev/header_page")" page &&
	echo "$kb" >"$TRACEFS/buffer_subbuf_size_kb" &&
	step step-1-header-page "with buffer_subbuf_size_kb $kb, data's size is $(fields "$ev/header_page" | awk '$1 == "data" { print $3 }'): read offsets and sizes from header_page, not the transcript's numbers" \
		"$(fields "$ev/header_page")" page &&
	{
		run_prog 20 env TRACEFS="$fake" sh "$dir/formats.sh" page
		want=$(fields $fake/events/header_page)
		if [ "$prog_out" = "$want" ]; then
			pass step-1-header-page
		else
			fail step-1-header-page "with TRACEFS=$fake, $(page_hint "$want"); $(first_diff "$want" "$prog_out")"
		fi
	}
echo 4 >"$TRACEFS/buffer_subbuf_size_kb"

# Step 2: header_event, then a copy of it in $fake/events (TRACEFS=$fake)
# with other widths and type_len values, as another kernel could have.
header_event() {
	awk '/bits$/ && $1 != "array" { print $1, $3 } /: type ==/ { print $1, $NF } /data max type_len/ { print "max_type_len", $NF }' "$1"
}
tl=$(rand 3 7)
[ "$tl" != 5 ] || tl=8
max=$(((1 << tl) - 4))
awk -v tl="$tl" -v max="$max" '
	$1 == "type_len" { sub(/[0-9]+ bits/, tl " bits") }
	$1 == "time_delta" { sub(/[0-9]+ bits/, 32 - tl " bits") }
	$1 == "padding" { sub(/[0-9]+$/, max + 1) }
	$1 == "time_extend" { sub(/[0-9]+$/, max + 2) }
	$1 == "time_stamp" { sub(/[0-9]+$/, max + 3) }
	/data max type_len/ { sub(/[0-9]+$/, max) }
	{ print }' "$ev/header_event" >$fake/events/header_event
step step-2-header-event "read the bit widths and the 'type ==' lines of events/header_event" \
	"$(header_event "$ev/header_event")" event-header &&
	{ tracefs=$fake; step step-2-header-event "with TRACEFS=$fake, a copy of header_event with other numbers (type_len $tl bits): print what \$T/header_event says, not this kernel's or the transcript's numbers" \
		"$(header_event $fake/events/header_event)" event-header; } &&
	pass step-2-header-event
tracefs=

# Every format file's ID and field lines, as FILE:LINE, read once for
# steps 3 and 4 (a pass over the thousand format files takes about half a
# second in the guest).
all=$fake/formats
grep -H -e '^ID: ' -e 'field:' "$ev"/*/*/format >$all
# Step 3: the print event (what trace_marker writes), one with a fixed-size
# array field and one with a digit in a field name, chosen per run.
# Both chosen in one pass over the lines (each of two greps took 0.25 to
# 0.4 s in the guest), each event as likely as any other that has one.
read -r array digit <<EOF
$(awk -v seed="$(rand 1 1000000)" 'BEGIN { srand(seed) }
	/:[[:space:]]*field:/ {
		f = $0; sub(/:.*/, "", f)
		if (f != la && $0 ~ /:[[:space:]]*field:.*\[[0-9][0-9]*\];/) {
			la = f
			if (rand() * ++na < 1) a = f
		}
		if (f != ld && $0 ~ /:[[:space:]]*field:[^;]*[ *][A-Za-z_]*[0-9][A-Za-z_0-9]*(\[[0-9]*\])?;/) {
			ld = f
			if (rand() * ++nd < 1) d = f
		}
	}
	END { print (a == "" ? "-" : a) " " (d == "" ? "-" : d) }' $all)
EOF
array=${array#-} digit=${digit#-}
# event_hint E FILE WANT GOT: what the first line of GOT that is not WANT
# says was missed, for event E (format file FILE): an array field's [N]
# kept, a field with a digit in its name lost, an array field lost.
event_hint() {
	local n w g a
	n=$(first_diff "$3" "$4" | sed 's/^line \([0-9]*\):.*/\1/')
	w=$(printf '%s\n' "$3" | sed -n "${n}s/ .*//p")
	g=$(printf '%s\n' "$4" | sed -n "${n}p")
	a=$(sed -n "s/^[[:space:]]*field:[^;]*[ *]\($w\[[0-9][0-9]*\]\);.*/\1/p" "$2")
	if [ -n "$a" ] && [ "${g#"$w"[}" != "$g" ]; then
		echo "for $1: a fixed-size array field such as '$a' is named without its [N], its size that of the whole array"
	elif [ "${w#*[0-9]}" != "$w" ]; then
		echo "for $1: field names can have digits, such as '$w'"
	elif [ -n "$a" ]; then
		echo "for $1: a fixed-size array field such as '$a' is named without its [N], its size that of the whole array"
	else
		echo "for $1: 'id N' first, then every field with its name without type or [], e.g. 'buf 16 0'"
	fi
}
ok=1
for f in "$ev/ftrace/print/format" $array $digit; do
	e=$(name "$f")
	want=$(sed -n 's/^ID: /id /p' "$f"; fields "$f")
	run_prog 20 sh "$dir/formats.sh" event "$e"
	[ "$prog_out" != "$want" ] || continue
	fail step-3-event-format "$(event_hint "$e" "$f" "$want" "$prog_out"); $(first_diff "$want" "$prog_out")"
	ok=0
	break
done
# Then (TRACEFS=$fake) a copy of an event chosen per run whose print fmt
# also has "ID:" in it, as "CPUID: %x" in x86's mce/mce_record: only the
# line that starts with "ID: " is the event's ID.
if [ "$ok" = 1 ]; then
	f=$(cut -d: -f1 $all | uniq | pick)
	e=$(name "$f")
	label=$(echo "CPUID IPID PID UID ID" | tr ' ' '\n' | pick)
	mkdir -p "$fake/events/$e"
	awk -v l="$label" '/^print fmt: "/ {
		s = substr($0, 13)
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\\")
				i++
			else if (c == "\"")
				break
		}
		$0 = "print fmt: \"" l ": %d, " substr(s, 1, i) ", REC->common_pid" substr(s, i + 1)
	}
	{ print }' "$f" >"$fake/events/$e/format"
	want=$(sed -n 's/^ID: /id /p' "$fake/events/$e/format"; fields "$fake/events/$e/format")
	run_prog 20 env TRACEFS="$fake" sh "$dir/formats.sh" event "$e"
	if [ "$prog_out" = "$want" ]; then
		pass step-3-event-format
	elif [ "$(printf '%s\n' "$prog_out" | grep -c -E '^id( [0-9]*)?$')" -gt 1 ]; then
		fail step-3-event-format "with TRACEFS=$fake, for $e, a copy whose print fmt has '$label: %d' in it (as x86's mce/mce_record has 'CPUID: %x'): it printed more than one id line: the ID is on the line that starts with 'ID: ' only; $(first_diff "$want" "$prog_out")"
	else
		fail step-3-event-format "with TRACEFS=$fake, $(event_hint "$e" "$fake/events/$e/format" "$want" "$prog_out") (a copy whose print fmt has '$label: %d' in it); $(first_diff "$want" "$prog_out")"
	fi
fi

# Step 4: by ID. The print event, an event of another system, an ID that
# other IDs listed before it start with (a search not matching the whole
# line finds those), then an ID no event has: one line of error and a
# non-zero exit status, nothing on stdout.
ids=$(sed -n 's/:ID: / /p' $all)
other=$(echo "$ids" | grep -v "^$ev/ftrace/" | pick)
# An ID with an ID listed before it that starts with it: each ID's
# prefixes are remembered (the first ID that has each), so that this is
# one pass, not one per pair (which took 4 s in the guest).
prefix=$(echo "$ids" | awk '
	$2 in pre { print $0, pre[$2] }
	{ for (k = 1; k < length($2); k++) if (!(substr($2, 1, k) in pre)) pre[substr($2, 1, k)] = $2 }' | pick)
ok=1
for l in "$ev/ftrace/print/format" "$other" "$prefix"; do
	set -- $l
	e=$(name "$1") id=$(sed -n 's/^ID: //p' "$1")
	run_prog 20 sh "$dir/formats.sh" id "$id"
	[ "$prog_out" != "$e" ] || continue
	got=$(sed -n 's/^ID: //p' "$ev/$prog_out/format" 2>/dev/null)
	case $got in
	"$id"?*) hint="ID $id is $e, not $prog_out (ID $got starts with $id): match the whole 'ID: $id' line" ;;
	*) hint="ID $id is $e (search the 'ID:' lines of events/*/*/format)" ;;
	esac
	fail step-4-find-by-id "$hint; $(first_diff "$e" "$prog_out")"
	ok=0
	break
done
if [ "$ok" = 1 ]; then
	id=$(($(echo "$ids" | awk '$2 > m { m = $2 } END { print m }') + $(rand 1 999)))
	# One run, its stdout and stderr apart (run_prog would merge them).
	prog_cmd="sh ./formats.sh id $id" prog_rc=0
	out=$(cd /tmp && timeout 20 sh "$dir/formats.sh" id "$id" 2>$fake/err) || prog_rc=$?
	prog_out=$(printf '%s\n' "$out" | grep .; cat $fake/err)
	if [ "$prog_rc" = 0 ]; then
		fail step-4-find-by-id "no event has ID $id: print one line of error to stderr and exit non-zero, not exit 0"
	elif [ -n "$out" ] || [ "$(printf '%s\n' "$prog_out" | grep -c .)" != 1 ]; then
		fail step-4-find-by-id "no event has ID $id: print one line of error, to stderr (stdout is for the name), and exit non-zero"
	else
		pass step-4-find-by-id
	fi
fi
