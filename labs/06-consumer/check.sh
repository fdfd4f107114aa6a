#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 06 in the guest: the learner's ./stream follows trace_marker
# writes on CPU 0 as they come, in order, and stops after COUNT.
#   sh check.sh DIR
SUITE=${SUITE:-labs/06-consumer}
. "$(dirname "$0")/../check-lib.sh"
lab_start "$1" stream step-1-waits
out=/tmp/lab06.out
expected() { i=$1; while [ "$i" -lt "$2" ]; do echo "lab06 $i"; i=$((i + 1)); done; }
show() { head -n 3 $out | tr '\n' ' '; }

trace_reset
echo 0 >$TRACEFS/buffer_percent
"$dir/stream" 0 60 >$out 2>&1 &
pid=$!
sleep 1
if alive $pid && [ ! -s $out ]; then
	pass step-1-waits
else
	fail step-1-waits "on an empty buffer the consumer should wait in GET_READER (blocking fd), not exit or print; got '$(show)'"
fi
markers lab06 0 10
sleep 1
if alive $pid && [ "$(cat $out)" = "$(expected 0 10)" ]; then
	pass step-2-streams
else
	fail step-2-streams "after 10 events it should have printed 'lab06 0'..'lab06 9' and keep waiting; got '$(show)'"
fi
markers lab06 10 60
if ! wait_exit $pid 10; then
	kill $pid
	fail step-3-count "still running 10 s after the 60th event; got $(wc -l <$out) lines"
elif [ "$(cat $out)" = "$(expected 0 60)" ]; then
	pass step-3-count
else
	fail step-3-count "want 'lab06 0'..'lab06 59', one a line, then exit; got $(wc -l <$out) lines, starting '$(show)'"
fi

# More than one sub-buffer's worth, written while it reads.
trace_reset
echo 0 >$TRACEFS/buffer_percent
"$dir/stream" 0 600 >$out 2>&1 &
pid=$!
markers lab06 0 600
if ! wait_exit $pid 20; then
	kill $pid
	fail step-4-many-sub-buffers "still running 20 s after 600 events; got $(wc -l <$out) lines"
elif [ "$(cat $out)" = "$(expected 0 600)" ]; then
	pass step-4-many-sub-buffers
else
	fail step-4-many-sub-buffers "600 events over several sub-buffers: want every one, in order; got $(wc -l <$out) lines, first difference: $(expected 0 600 | diff - $out | grep '^[-+]l' | head -n 2 | tr '\n' ' ')"
fi
trace_reset
