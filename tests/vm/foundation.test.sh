# SPDX-License-Identifier: MIT
# The guest is our kernel, with two CPUs, tracefs and a mappable ring buffer.
. "$(dirname "$0")/guest-lib.sh"

release=$(uname -r)
case $release in
6.12.*-tmguide) pass kernel-release ;;
*) fail kernel-release "uname -r is '$release', wanted 6.12.*-tmguide" ;;
esac
expect_eq two-cpus-online 0-1 "$(cat /sys/devices/system/cpu/online)"
check tracefs-mounted grep -q "^tracefs $TRACEFS tracefs" /proc/mounts
check per-cpu-cpu0 test -e $TRACEFS/per_cpu/cpu0/trace_pipe_raw
check per-cpu-cpu1 test -e $TRACEFS/per_cpu/cpu1/trace_pipe_raw
# vm/init holds the scheduler's tracepoints for the whole boot (docs/vm.rst).
expect_eq sched-probes-held 1 "$(cat $TRACEFS/instances/vm-sched-hold/set_event_pid 2>&1)"

trace_reset
if out=$(meta_page 0); then
	pass meta-page-maps
	field() { echo "$out" | sed -n "s/^$1 //p"; }
	# The page size (busybox has no getconf): rb_peek prints sysconf's.
	page=$(rb_peek --cpu 0 layout | sed -n 's/^page size  *//p')
	expect_eq meta-struct-len 80 "$(field meta_struct_len)"
	# trace_reset asked for 4 KiB: the kernel gives one page, 4 KiB or
	# 64 KiB (a sub-buffer is a power-of-two number of whole pages).
	expect_eq subbuf-size "$page" "$(field subbuf_size)"
	expect_eq meta-page-size-is-subbuf-size "$(field subbuf_size)" "$(field meta_page_size)"
	# buffer_size_kb counts data bytes; a sub-buffer holds subbuf_size
	# minus its header of them (16 bytes on a 64-bit kernel, 12 on a
	# 32-bit one: events/header_page); one more sub-buffer is the reader's.
	data=$(($(cat $TRACEFS/buffer_size_kb) * 1024))
	cap=$(($(field subbuf_size) - $(header_page data offset)))
	want=$(((data + cap - 1) / cap + 1))
	expect_eq nr-subbufs "$want" "$(field nr_subbufs)"
	expect_eq flags-zero 0 "$(field flags)"
else
	fail meta-page-maps "$out"
fi

# Where the sub-buffers start (issue 23 item 5): with 8 KiB asked for, one
# sub-buffer mapped alone at page offset P is accepted exactly where the
# library's formula, meta_page_size + i * subbuf_size, puts a sub-buffer,
# and holds what the whole mapping has there; every other offset is
# EINVAL. 6.12 pads the meta-page to a sub-buffer (meta_page_size ==
# subbuf_size); 6.10 did not (one page: the matrix's x86_64-610-layout
# kernel, which expects the failure of meta-page-8k-is-subbuf-size).
# The "layout:" lines are what tests/check-matrix.sh keeps.
trace_reset "" 8
event_burst 800
if got=$(check_aid offsets 0); then
	printf '%s\n' "$got" | sed 's/^/layout: /'
	meta=$(echo "$got" | sed -n 's/^meta_page_size //p')
	size=$(echo "$got" | sed -n 's/^subbuf_size //p')
	page=$(rb_peek --cpu 0 layout | sed -n 's/^page size  *//p')
	expect_eq meta-page-8k-is-subbuf-size "$size" "$meta"
	want=$(p=1
		while [ $p -le $((2 * size / page + 1)) ]; do
			off=$((p * page))
			if [ $off -ge "$meta" ] && [ $(((off - meta) % size)) = 0 ]; then
				echo "pgoff $p: same"
			else
				echo "pgoff $p: EINVAL"
			fi
			p=$((p + 1))
		done)
	expect_eq mmap-offsets-follow-meta-page-size "$want" "$(echo "$got" | grep '^pgoff ')"
else
	fail mmap-offsets-follow-meta-page-size "check_aid offsets 0 failed: $got"
fi
trace_reset
