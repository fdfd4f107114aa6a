#!/bin/sh
# SPDX-License-Identifier: MIT
# The ring-buffer chapters' claims that a test can show, one result each:
# when the meta-page is refreshed, what a blocking GET_READER waits for
# (buffer_percent, the writer on the reader page), what a reset does to a
# mapping, the snapshot rules and the resize rules. rb_peek steps holds the
# mapping; the shell acts on tracefs between its steps.
. "$(dirname "$0")/guest-lib.sh"
tmp=/tmp/docs-claims-rb
rm -rf $tmp && mkdir -p $tmp

# steps SCRIPT: run rb_peek steps on CPU 0 with SCRIPT, output in $tmp/out.
steps() {
	printf '%s\n' "$1" | taskset -c 0 rb_peek --cpu 0 steps >$tmp/out 2>&1
}

# field NAME [NTH]: a field of the NTH (default: last) "meta:" line of $tmp/out.
field() {
	grep '^  meta:' $tmp/out | sed -n "${2:-\$}p" |
		sed -n "s/.* $1 \([0-9]*\).*/\1/p"
}

# ioctl_result [NTH]: what the NTH (default: last) get-blocking printed.
ioctl_result() {
	grep '^  ioctl:' $tmp/out | sed -n "${1:-\$}p" | sed 's/^  ioctl: //'
}

# subbuf_data: the data bytes of the reader sub-buffer the last show printed.
subbuf_data() {
	tail -n 1 $tmp/out | sed -n 's/.*: \([0-9]*\) bytes of data$/\1/p'
}

# hold_start: map CPU 0 with rb_peek steps reading its steps from a FIFO, so
# that the shell can act while the mapping exists; hold_step CMD sends one
# step followed by "show" and waits for the show; hold_stop unmaps.
hold_start() {
	# A fresh, empty out: the last session's lines would answer hold_step
	# before the background rb_peek (slow to start on a busy host) has
	# opened it, let alone mapped the buffer.
	rm -f $tmp/fifo $tmp/out && mkfifo $tmp/fifo && : >$tmp/out
	taskset -c 0 rb_peek --cpu 0 steps <$tmp/fifo >>$tmp/out 2>&1 &
	hold_pid=$!
	exec 3>$tmp/fifo
	hold_shows=0
	hold_step show
}
hold_step() {
	local i=0
	printf '%s\nshow\n' "$1" >&3
	hold_shows=$((hold_shows + 1))
	while [ "$(grep -c '^  sub-buffer' $tmp/out)" -lt $hold_shows ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "hold_step: no answer to '$1'" >&2; return 1; }
		sleep 0.05
	done
}
hold_stop() {
	exec 3>&-
	wait $hold_pid
}

# try_write FILE VALUE: "ok" or the error of writing VALUE to tracefs FILE.
try_write() {
	if err=$(sh -c "echo $2 >$TRACEFS/$1" 2>&1); then echo ok; else
		case $err in
		*busy*) echo EBUSY ;;
		*) echo "$err" ;;
		esac
	fi
}

# --- The meta-page is refreshed by the first mapping -----------------------
trace_reset
taskset -c 0 sh -c 'echo before the mapping >$0/trace_marker; echo again >$0/trace_marker' $TRACEFS
steps 'show
write 1 after the mapping
show'
expect_eq first-mmap-refreshes-meta-page 2 "$(field entries 1)"
expect_eq writes-leave-meta-page-stale 2 "$(field entries 2)"

# --- Blocking GET_READER and buffer_percent ---------------------------------
trace_reset
echo 0 >$TRACEFS/buffer_percent
steps 'write 1 one event
get-blocking 5'
expect_eq percent-0-returns-with-any-data "returned 0" "$(ioctl_result)"

trace_reset
echo 50 >$TRACEFS/buffer_percent
steps 'write 2 two events
get-blocking 1'
expect_eq percent-50-waits-below-the-mark EINTR "$(ioctl_result)"

# 8 KiB: three data sub-buffers; 130 events fill more than one of them.
trace_reset 8
steps 'write 130 more than a sub-buffer
get-blocking 5'
expect_eq percent-50-returns-above-the-mark "returned 0" "$(ioctl_result)"

# The watermark also needs the writer off the reader page: after a swap that
# took the writer's page, a new event is unread, yet the call waits.
trace_reset
echo 1 >$TRACEFS/buffer_percent
steps 'write 2 two events
get
write 1 on the reader page
get-blocking 1'
expect_eq writer-on-reader-page-blocks EINTR "$(ioctl_result)"
data=$(subbuf_data)
if [ "${data:-0}" -gt "$(field reader.read)" ]; then pass writer-on-reader-page-data-left; else
	fail writer-on-reader-page-data-left "data $data, reader.read $(field reader.read)"
fi
echo 50 >$TRACEFS/buffer_percent

# --- A reset while mapped ----------------------------------------------------
trace_reset
hold_start
hold_step 'write 2 two events'
hold_step get
id=$(field reader.id)
echo >$TRACEFS/trace
hold_step '# after echo > trace'
expect_eq reset-keeps-reader-id "$id" "$(field reader.id)"
expect_eq reset-refreshes-meta-entries 0 "$(field entries)"
expect_eq reset-refreshes-meta-read 0 "$(field reader.read)"
expect_eq reset-clears-reader-commit 0 "$(subbuf_data)"
hold_stop

# --- What GET_READER counts as read --------------------------------------
# Each call adds to the meta-page's read the data events it hands over: the
# data records between reader.read before and after it, not padding,
# discarded events (padding with a delta) or time stamps. Six discarded
# openat events among 480 markers (80 a round; with 64 KiB sub-buffers, on
# 64 KiB pages, 16 times as many, so that they still fill several
# sub-buffers), most of which the writer has left when they are handed
# over; check_aid records prints each call's records and what it added
# ("read+N"). The discard needs x86's exceptions:page_fault_kernel event
# (discard_arm); without it the rounds are markers only.
trace_reset
markers=$((40 * $(subbuf_bytes) / 4096))
discards=''
[ ! -d $DISCARD_FAULT ] || discards=1
for r in 1 2 3 4 5 6; do
	[ -z "$discards" ] || discard_arm 4242
	taskset -c 0 sh -c 'i=0; while [ $i -lt '$markers' ]; do echo "count '$r' $i"; i=$((i + 1)); done' >$TRACEFS/trace_marker
	[ -z "$discards" ] || discard_make 4242
	taskset -c 0 sh -c 'i=0; while [ $i -lt '$markers' ]; do echo "after '$r' $i"; i=$((i + 1)); done' >$TRACEFS/trace_marker
done
discard_disarm
taskset -c 0 check_aid records 0 >$tmp/records
# lines whose data records do not add up to what the call counted
expect_eq get-reader-counts-data-records "" "$(awk '{ n = 0; for (i = 2; i < NF; i++) if ($i ~ /^e[0-9]+\//) n++
	if ("read+" n != $NF) print }' $tmp/records)"
if [ -n "$discards" ]; then
	expect_ge get-reader-counts-past-discarded 2 "$(grep -c ' d/[0-9]*.* e5/' $tmp/records)"
else
	skip get-reader-counts-past-discarded "no exceptions:page_fault_kernel event (x86 only), so no discarded event"
fi
trace_reset

# --- Snapshots ---------------------------------------------------------------
trace_reset
echo 1 >$TRACEFS/snapshot
if rb_peek --cpu 0 layout >$tmp/layout 2>&1; then pass snapshot-taken-then-mmap-works; else
	fail snapshot-taken-then-mmap-works "$(tail -n 1 $tmp/layout)"
fi
echo 0 >$TRACEFS/snapshot

trig=$TRACEFS/events/ftrace/print/trigger
echo snapshot >$trig
if rb_peek --cpu 0 layout >$tmp/layout 2>&1; then
	fail armed-trigger-refuses-mmap "mmap worked"
else
	expect_eq armed-trigger-refuses-mmap 1 "$(grep -c 'Device or resource busy' $tmp/layout)"
fi
echo '!snapshot' >$trig
echo 0 >$TRACEFS/snapshot

trace_reset
hold_start
expect_eq mapped-refuses-snapshot-trigger EBUSY "$(try_write events/ftrace/print/trigger snapshot)"
expect_eq mapped-refuses-snapshot-write EBUSY "$(try_write snapshot 1)"
hold_stop
echo '!snapshot' >$trig 2>/dev/null
echo 0 >$TRACEFS/snapshot

# --- Resizing ----------------------------------------------------------------
trace_reset
hold_start
expect_eq mapped-cpu-size-busy EBUSY "$(try_write per_cpu/cpu0/buffer_size_kb 64)"
expect_eq all-cpus-size-busy EBUSY "$(try_write buffer_size_kb 64)"
# Twice the sub-buffer the kernel gave is another order; twice the 4 KiB
# trace_reset asked for is not on a 64 KiB-page kernel (both one page),
# and the kernel takes a write that keeps the order before it checks for
# a mapping.
expect_eq subbuf-size-busy EBUSY "$(try_write buffer_subbuf_size_kb $(($(subbuf_bytes) / 1024 * 2)))"
if [ -d $TRACEFS/per_cpu/cpu1 ]; then
	expect_eq unmapped-cpu-size-works ok "$(try_write per_cpu/cpu1/buffer_size_kb 64)"
else
	fail unmapped-cpu-size-works "the guest has no CPU 1"
fi
hold_stop
expect_eq size-works-after-munmap ok "$(try_write buffer_size_kb 64)"

# --- Order across CPUs: the clocks that promise it -------------------------
expect_eq cross-cpu-order-global "global: 40 events merged, in write order: yes" \
	"$(pingpong_order global 40)"
expect_eq cross-cpu-order-counter "counter: 40 events merged, in write order: yes" \
	"$(pingpong_order counter 40)"

# --- GET_READER's errors, the wake-up and signals (C, kselftest harness) ---
trace_reset
run_tap docs_claims taskset -c 0 docs_claims
trace_reset
rm -rf $tmp
