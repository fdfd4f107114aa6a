# SPDX-License-Identifier: MIT
# trace_stream --offline on damaged and mis-sized captures, made from the
# guest captures in data/ (capture.sh): every bad sub-buffer is named by
# index and byte offset, the others are still decoded, the exit status is 1
# at the end; a wrong --subbuf-size is caught with the right one suggested,
# and without --subbuf-size the size is detected.
. tests/host/lib.sh
dir=$WORK_DIR
data=tests/host/data
build_examples build trace_stream || exit 0
stream=$EXAMPLES/trace_stream

# decode NAME FILE [ARGS...]: run trace_stream --offline FILE into
# $dir/NAME.out and .err; its exit status into $dir/NAME.rc
decode() {
	local name=$1 file=$2 rc=0
	shift 2
	"$stream" --offline "$file" --tracefs "$data" "$@" >"$dir/$name.out" 2>"$dir/$name.err" || rc=$?
	echo "$rc" >"$dir/$name.rc"
}
# events NAME: the payloads decoded, one a line
events() { awk '$3 == "ftrace/print" { sub(/^[^ ]+ [^ ]+ [^ ]+ /, ""); print }' "$dir/$1.out"; }
# patch FILE OFFSET HEXBYTES: overwrite bytes in place ("00 00 88 13")
patch() {
	local b bytes=''
	for b in $3; do bytes+="\\x$b"; done
	printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# stderr_is NAME CASE PATTERN: exactly one stderr line, matching PATTERN
stderr_is() {
	if [ "$(wc -l <"$dir/$2.err")" = 1 ] && grep -q -- "$3" "$dir/$2.err"; then
		pass "$1"
	else
		fail "$1" "wanted one line with '$3', got '$(head -c 300 "$dir/$2.err" | tr '\n' '|')'"
	fi
}

# The clean capture, whole and one sub-buffer at a time (3 of 4 KiB).
decode clean "$data/cap4k.raw"
expect_eq clean-exit 0 "$(cat "$dir/clean.rc")"
for i in 0 1 2; do
	dd if="$data/cap4k.raw" of="$dir/sb$i.raw" bs=4096 skip=$i count=1 status=none
	decode "sb$i" "$dir/sb$i.raw"
done
expect_eq clean-is-its-sub-buffers "$(events clean)" "$(cat <(events sb0) <(events sb1) <(events sb2))"

# Sub-buffer 1 zeroed (issue 26.6: its events went missing without a
# word, exit 0): named as damage, the others decoded, exit 1.
cp "$data/cap4k.raw" "$dir/zeroed.raw"
dd if=/dev/zero of="$dir/zeroed.raw" bs=4096 seek=1 count=1 conv=notrunc status=none
decode zeroed "$dir/zeroed.raw"
expect_eq zeroed-exit 1 "$(cat "$dir/zeroed.rc")"
stderr_is zeroed-named zeroed "sub-buffer 1 (byte 4096): all zero, which read() never returns"
expect_eq zeroed-rest-decoded "$(cat <(events sb0) <(events sb2))" "$(events zeroed)"
# A file of zeros: one line, exit 1 (it said nothing).
head -c 12288 /dev/zero >"$dir/zeros.raw"
decode zeros "$dir/zeros.raw"
expect_eq zeros-exit 1 "$(cat "$dir/zeros.rc")"
stderr_is zeros-named zeros "zeros.raw: all zero: no sub-buffers"

# A bad record in sub-buffer 1: its 11th record (data offset 360, byte
# 4096 + 16 + 360) zeroed. The first 10 events of sub-buffer 1 and all of
# sub-buffers 0 and 2 are printed; one line names the place; exit 1.
cp "$data/cap4k.raw" "$dir/corrupt.raw"
patch "$dir/corrupt.raw" 4472 "00 00 00 00 00 00 00 00"
decode corrupt "$dir/corrupt.raw"
expect_eq corrupt-exit 1 "$(cat "$dir/corrupt.rc")"
stderr_is corrupt-named corrupt "sub-buffer 1 (byte 4096): bad record at byte 4472"
expect_eq corrupt-rest-decoded "$(cat <(events sb0) <(events sb1 | head -n 10) <(events sb2))" "$(events corrupt)"

# Sub-buffer 2's commit says 5000 bytes, more than it holds.
cp "$data/cap4k.raw" "$dir/commit.raw"
patch "$dir/commit.raw" $((8192 + 8)) "88 13 00 00"
decode commit "$dir/commit.raw"
expect_eq commit-exit 1 "$(cat "$dir/commit.rc")"
stderr_is commit-named commit "sub-buffer 2 (byte 8192): its commit is past its end"
expect_eq commit-rest-decoded "$(cat <(events sb0) <(events sb1))" "$(events commit)"

# Cut after 5000 bytes: sub-buffer 0, then the 24 records of sub-buffer 1
# that are whole in its first 904 bytes ((904 - 16) / 36).
head -c 5000 "$data/cap4k.raw" >"$dir/cut.raw"
decode cut "$dir/cut.raw"
expect_eq cut-exit 1 "$(cat "$dir/cut.rc")"
stderr_is cut-named cut "sub-buffer 1 (byte 4096): the file ends 904 bytes into it"
expect_eq cut-whole-events-decoded "$(cat <(events sb0) <(events sb1 | head -n 24))" "$(events cut)"

# Two 8 KiB sub-buffers (cap8k.raw twice).
cat "$data/cap8k.raw" "$data/cap8k.raw" >"$dir/two8k.raw"
decode detected "$dir/two8k.raw"
expect_eq detected-exit 0 "$(cat "$dir/detected.rc")"
expect_eq detected-all-events 80 "$(events detected | wc -l)"
stderr_is detected-says-so detected "sub-buffers of 8192 bytes (detected"
# Read as 16 KiB, every second sub-buffer would be skipped silently.
decode too-large "$dir/two8k.raw" --subbuf-size 16384
expect_eq too-large-exit 1 "$(cat "$dir/too-large.rc")"
stderr_is too-large-suggests too-large "try --subbuf-size 8192"
# Read as 4 KiB, every commit is past the end.
decode too-small "$dir/two8k.raw" --subbuf-size 4096
expect_eq too-small-exit 1 "$(cat "$dir/too-small.rc")"
stderr_is too-small-suggests too-small "try --subbuf-size 8192"
# The right size given: as detected, and quiet.
decode given "$dir/two8k.raw" --subbuf-size 8192
expect_eq given-same-output "$(cat "$dir/detected.out")" "$(cat "$dir/given.out")"
expect_eq given-quiet "0 " "$(cat "$dir/given.rc") $(cat "$dir/given.err")"

# No event format to be had: every event prints as unknown/ID, and a
# warning says why.
mkdir -p "$dir/no-formats"
decode no-formats "$data/cap4k.raw" --tracefs "$dir/no-formats"
expect_eq no-formats-exit 0 "$(cat "$dir/no-formats.rc")"
expect_eq no-formats-unknown 304 "$(grep -c ' unknown/5 size=32$' "$dir/no-formats.out")"
stderr_is no-formats-warned no-formats "no event format could be loaded from $dir/no-formats/events"
