#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 01 in the guest: compare what formats.sh in DIR prints with the
# kernel's format files, read here by another parser.
#   sh check.sh DIR
SUITE=${SUITE:-labs/01-tracefs}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" formats.sh step-1-header-page
ev=$TRACEFS/events

# fields FILE: "NAME OFFSET SIZE" for each "field:" line of a format file.
fields() {
	awk -F';' '/^[ \t]*field:/ {
		decl = $1; sub(/.*field: ?/, "", decl); sub(/\[[0-9]*\]$/, "", decl)
		n = split(decl, w, /[ *]+/); name = w[n]
		off = $2; sub(/.*offset:/, "", off); size = $3; sub(/.*size:/, "", size)
		print name, off, size
	}' "$1"
}

# step NAME HINT WANT ARGS...: run formats.sh ARGS and compare with WANT.
step() {
	local name=$1 hint=$2 want=$3
	shift 3
	run_prog 20 sh "$dir/formats.sh" "$@"
	expect_lines "$name" "$hint" "$want" "$prog_out"
}

step step-1-header-page "each 'field:' line of events/header_page gives NAME OFFSET SIZE" \
	"$(fields "$ev/header_page")" page

want=$(awk '/bits$/ && $1 != "array" { print $1, $3 } /: type ==/ { print $1, $NF } /data max type_len/ { print "max_type_len", $NF }' \
	"$ev/header_event")
step step-2-header-event "read the bit widths and the 'type ==' lines of events/header_event" \
	"$want" event-header

# The print event (what trace_marker writes) and one more, the first with an
# array or string field if there is one.
other=$(grep -l '\[' "$ev"/*/*/format | grep -v /ftrace/ | head -n 1)
other=${other:-$(ls "$ev"/*/*/format | grep -v /ftrace/ | head -n 1)}
other=${other#$ev/}
other=${other%/format}
ok=1
for e in ftrace/print "$other"; do
	want=$(sed -n 's/^ID: /id /p' "$ev/$e/format"; fields "$ev/$e/format")
	run_prog 20 sh "$dir/formats.sh" event "$e"
	if [ "$prog_out" != "$want" ]; then
		fail step-3-event-format "for $e: 'id N' first, then every field with its name without type or [], e.g. 'buf 16 0'; $(first_diff "$want" "$prog_out")"
		ok=0
		break
	fi
done
[ "$ok" = 0 ] || pass step-3-event-format

ok=1
for e in ftrace/print "$other" "$(ls "$ev"/*/*/format | tail -n 1 | sed "s#^$ev/##; s#/format\$##")"; do
	id=$(sed -n 's/^ID: //p' "$ev/$e/format")
	run_prog 20 sh "$dir/formats.sh" id "$id"
	if [ "$prog_out" != "$e" ]; then
		fail step-4-find-by-id "ID $id is $e (search the 'ID:' lines of events/*/*/format); $(first_diff "$e" "$prog_out")"
		ok=0
		break
	fi
done
[ "$ok" = 0 ] || pass step-4-find-by-id
