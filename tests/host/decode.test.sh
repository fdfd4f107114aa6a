# SPDX-License-Identifier: MIT
# The ring-buffer decoder (examples/lib/tracemap.c) on synthetic sub-buffers
# (decode.c), and trace_stream --offline on sub-buffers captured in the
# guest (data/capture.sh says how and what they hold).
. tests/host/lib.sh
dir=$WORK_DIR

# -O1 and -O2 warn about different things (maybe-uninitialized at -O1).
# decode.c uses the kernel's kselftest harness, as the guest's tests do.
harness=(-I "$TREE_DIR/tools/testing/selftests")
CFLAGS="-O1 -g" check_build build-O1 "$dir/decode-O1" --lib "${harness[@]}" tests/host/decode.c || exit 0
check_build build-O2 "$dir/decode" --lib "${harness[@]}" tests/host/decode.c || exit 0
# A crash or an early exit fails decode-exit and decode-plan (and the
# results that never came are missing).
run_tap decode "$dir/decode"

build_examples examples-build || exit 0
stream=$EXAMPLES/trace_stream
data=tests/host/data

# cap4k: 2000 markers, 1696 overwritten (overrun in the guest's stats).
"$stream" --offline "$data/cap4k.raw" --tracefs "$data" >"$dir/cap4k.out"
missed=$(awk '$3 == "missed" { s += $4 } END { print s + 0 }' "$dir/cap4k.out")
want=$(seq 1697 2000 | sed 's/^/capture /')
got=$(awk '$3 == "ftrace/print" { sub(/^[^ ]+ [^ ]+ [^ ]+ /, ""); print }' "$dir/cap4k.out")
if [ "$missed" = 1696 ] && [ "$(head -n 1 "$dir/cap4k.out" | cut -d' ' -f3-)" = "missed 1696" ]; then
	pass offline-missed-equals-overrun
else
	fail offline-missed-equals-overrun "missed $missed, wanted 1696 on the first line"
fi
if [ "$got" = "$want" ]; then
	pass offline-survivors-in-order
else
	fail offline-survivors-in-order "$(diff <(echo "$want") <(echo "$got") | head -n 3)"
fi
if awk '{ if ($1 != 0 || $2 + 0 < last) exit 1; last = $2 + 0 }' "$dir/cap4k.out"; then
	pass offline-cpu-and-time-order
else
	fail offline-cpu-and-time-order "a line out of order or on the wrong CPU"
fi

# cap8k: large events (type_len 0) and time extends on 8 KiB sub-buffers.
"$stream" --offline "$data/cap8k.raw" --subbuf-size 8192 --tracefs "$data" >"$dir/cap8k.out"
zeros=$(printf '%0200d' 0)
want=$(for i in $(seq 1 20); do echo "large $i $zeros"; echo "small $i"; done)
got=$(cut -d' ' -f4- "$dir/cap8k.out")
if [ "$got" = "$want" ]; then
	pass offline-large-events
else
	fail offline-large-events "$(diff <(echo "$want") <(echo "$got") | head -n 3)"
fi
# The 0.2 s pauses (after large 5, 10, 15, 20) show in the timestamps.
gaps=$(awk '{ if (NR > 1 && $2 - last > 0.15) n++; last = $2 } END { print n + 0 }' "$dir/cap8k.out")
expect_eq offline-time-extends 4 "$gaps"

# Bad input: one line on stderr, exit 1 (2 for usage).
head -c 5000 "$data/cap4k.raw" >"$dir/partial.raw"
expect_error() {
	local name=$1 want_rc=$2 rc=0
	shift 2
	"$@" >/dev/null 2>"$dir/err" || rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$(wc -l <"$dir/err")" = 1 ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, stderr '$(head -c 200 "$dir/err")'"
	fi
}
expect_error offline-partial-subbuf 1 "$stream" --offline "$dir/partial.raw" --tracefs "$data"
expect_error offline-missing-file 1 "$stream" --offline "$dir/nope.raw"
expect_error bad-number 2 "$stream" --cpu x
expect_error offline-wrong-subbuf-size 1 "$stream" --offline "$data/cap4k.raw" --subbuf-size 8192 --tracefs "$data"
