# SPDX-License-Identifier: MIT
# Which trace clocks order events across CPUs: for each clock, 40
# trace_marker lines written in turn from CPU 0 and CPU 1, each after the
# last, merged by trace_stream in time-stamp order (pingpong_order in
# tests/vm/guest-lib.sh; tests/vm/docs-claims-rb.test.sh checks the
# clocks that promise it).
. "$GUEST_PREFIX/tests/guest-lib.sh"
echo "$ cat trace_clock"
cat $TRACEFS/trace_clock
echo "$ # 40 lines 'step I', CPU 0 and CPU 1 in turn; trace_stream --nonblock merges them"
for clock in local global counter mono; do
	pingpong_order $clock 40
done
