#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 07 in the guest: the same producer (a seq_producer run of 10000
# events with 64-byte payloads on CPU 0) drained by the learner's ./measure
# with read() and through the mapping; both must see every event and byte,
# and time it.
#   sh check.sh DIR
SUITE=${SUITE:-labs/07-measure}
. "$(dirname "$0")/../check-lib.sh"
lab_start "$1" measure step-1-read
total=10000 size=64
# Each seq_event: struct trace_entry (8), seq (8), len (4), the payload's
# __data_loc word (4), then the payload; rounded up to 4 bytes.
want_bytes=$((total * ((24 + size + 3) / 4 * 4)))
produce() {
	trace_reset
	seq_produce $total $size || fail step-1-read "the seq_producer module did not load"
}
# Drain with ./measure MODE, for each MODE; sets $usec_MODE.
for mode in read mmap; do
	produce
	got=$(timeout 60 "$dir/measure" 0 $mode 2>&1)
	echo "$got"
	case $got in
	"$mode events $total bytes $want_bytes usec "*)
		eval "usec_$mode=\${got##* }"
		pass "step-$([ $mode = read ] && echo 1 || echo 2)-$mode"
		;;
	*)
		fail "step-$([ $mode = read ] && echo 1 || echo 2)-$mode" "want '$mode events $total bytes $want_bytes usec T'; got '$(echo "$got" | head -n 2 | tr '\n' ' ')'"
		;;
	esac
done
if [ "${usec_read:-0}" -gt 0 ] && [ "${usec_mmap:-0}" -gt 0 ]; then
	echo "read(): ${usec_read} us; mmap: ${usec_mmap} us, for $total events"
	pass step-3-compare
else
	fail step-3-compare "both drains must report their time in usec (monotonic clock); got read '${usec_read:-}', mmap '${usec_mmap:-}'"
fi
trace_reset
