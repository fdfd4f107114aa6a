# SPDX-License-Identifier: MIT
# The ring-buffer decoder (examples/tracemap.c) on synthetic sub-buffers
# (decode.c), and trace_stream --offline on sub-buffers captured in the
# guest (data/capture.sh says how and what they hold).
set -euo pipefail
dir=$B/host/$SUITE
rm -rf "$dir" && mkdir -p "$dir"
CFLAGS=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -Iexamples)

# -O1 and -O2 warn about different things (maybe-uninitialized at -O1).
for opt in -O1 -O2; do
	if ! gcc "${CFLAGS[@]}" "$opt" -o "$dir/decode$opt" tests/host/decode.c examples/tracemap.c \
		2>"$dir/build$opt.log"; then
		echo "FAIL: $SUITE/build$opt: $(head -n 3 "$dir/build$opt.log" | tr '\n' ' ')"
		exit 0
	fi
done
echo "PASS: $SUITE/builds-at-O1-and-O2"
"$dir/decode-O2" || true

make -s -C examples O="$PWD/$dir/examples" >"$dir/examples.log" 2>&1 ||
	echo "FAIL: $SUITE/examples-build: see $dir/examples.log"
stream=$dir/examples/trace_stream
data=tests/host/data

# cap4k: 2000 markers, 1696 overwritten (overrun in the guest's stats).
"$stream" --offline "$data/cap4k.raw" --tracefs "$data" >"$dir/cap4k.out"
missed=$(awk '$3 == "missed" { s += $4 } END { print s + 0 }' "$dir/cap4k.out")
want=$(seq 1697 2000 | sed 's/^/capture /')
got=$(awk '$3 == "ftrace/print" { sub(/^[^ ]+ [^ ]+ [^ ]+ /, ""); print }' "$dir/cap4k.out")
if [ "$missed" = 1696 ] && [ "$(head -n 1 "$dir/cap4k.out" | cut -d' ' -f3-)" = "missed 1696" ]; then
	echo "PASS: $SUITE/offline-missed-equals-overrun"
else
	echo "FAIL: $SUITE/offline-missed-equals-overrun: missed $missed, wanted 1696 on the first line"
fi
if [ "$got" = "$want" ]; then
	echo "PASS: $SUITE/offline-survivors-in-order"
else
	echo "FAIL: $SUITE/offline-survivors-in-order: $(diff <(echo "$want") <(echo "$got") | head -n 3 | tr '\n' ' ')"
fi
if awk '{ if ($1 != 0 || $2 + 0 < last) exit 1; last = $2 + 0 }' "$dir/cap4k.out"; then
	echo "PASS: $SUITE/offline-cpu-and-time-order"
else
	echo "FAIL: $SUITE/offline-cpu-and-time-order: a line out of order or on the wrong CPU"
fi

# cap8k: large events (type_len 0) and time extends on 8 KiB sub-buffers.
"$stream" --offline "$data/cap8k.raw" --subbuf-size 8192 --tracefs "$data" >"$dir/cap8k.out"
zeros=$(printf '%0200d' 0)
want=$(for i in $(seq 1 20); do echo "large $i $zeros"; echo "small $i"; done)
got=$(cut -d' ' -f4- "$dir/cap8k.out")
if [ "$got" = "$want" ]; then
	echo "PASS: $SUITE/offline-large-events"
else
	echo "FAIL: $SUITE/offline-large-events: $(diff <(echo "$want") <(echo "$got") | head -n 3 | tr '\n' ' ')"
fi
# The 0.2 s pauses (after large 5, 10, 15, 20) show in the timestamps.
gaps=$(awk '{ if (NR > 1 && $2 - last > 0.15) n++; last = $2 } END { print n + 0 }' "$dir/cap8k.out")
if [ "$gaps" = 4 ]; then echo "PASS: $SUITE/offline-time-extends"; else echo "FAIL: $SUITE/offline-time-extends: $gaps pauses, wanted 4"; fi

# Bad input: one line on stderr, exit 1 (2 for usage).
head -c 5000 "$data/cap4k.raw" >"$dir/partial.raw"
expect_error() {
	local name=$1 want_rc=$2 rc=0
	shift 2
	"$@" >/dev/null 2>"$dir/err" || rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$(wc -l <"$dir/err")" = 1 ]; then
		echo "PASS: $SUITE/$name"
	else
		echo "FAIL: $SUITE/$name: exit $rc, stderr '$(head -c 200 "$dir/err")'"
	fi
}
expect_error offline-partial-subbuf 1 "$stream" --offline "$dir/partial.raw" --tracefs "$data"
expect_error offline-missing-file 1 "$stream" --offline "$dir/nope.raw"
expect_error bad-number 2 "$stream" --cpu x
expect_error offline-wrong-subbuf-size 1 "$stream" --offline "$data/cap4k.raw" --subbuf-size 8192 --tracefs "$data"
