# SPDX-License-Identifier: MIT
# What the guest's scripts share (busybox sh): the tests in tests/vm, the
# transcripts and the labs' checks source it, in the guest, from
# $GUEST_PREFIX/tests/guest-lib.sh. It brings the result helpers
# (tests/results.sh: pass, fail, skip, result, check, expect_eq,
# expect_ge, expect_match, run_checked, tap_results, run_tap), whose lines
# also go to the status channel the host reads, and the helpers below.
. "$GUEST_PREFIX/tests/results.sh"
TRACEFS=/sys/kernel/tracing
SUITE=${SUITE:-${0##*/}}
SUITE=${SUITE%.sh}
# The status channel: /dev/ttyS1 unless RESULT_CHANNEL is set (the host's
# runner self-test sets it).
[ -n "${RESULT_CHANNEL+set}" ] || [ ! -w /dev/ttyS1 ] || RESULT_CHANNEL=/dev/ttyS1

# The kernel under test: "" for ours (kernel-patches/ applied), or the
# name tests/check-debian-kernels.sh boots another with (tmg.kernel=NAME on
# the command line, e.g. debian-6.12). patched: does it have our series?
GUEST_KERNEL=$(sed -n 's/.*tmg\.kernel=\([^ ]*\).*/\1/p' /proc/cmdline 2>/dev/null)
patched() { [ -z "$GUEST_KERNEL" ]; }

# can_map: can this kernel map a CPU's ring buffer (Linux 6.10+; Debian's
# 6.1 cannot: mmap of trace_pipe_raw is ENODEV)? Where it cannot, the
# library reads with read() and trace_stream says so on stderr, one line
# (MAP_NOTICE); errors FILE is FILE without that line there, and FILE
# itself where the kernel can map (the line would be a failure).
can_map() { uname -r | awk -F'[.-]' '{ exit !($1 > 6 || ($1 == 6 && $2 >= 10)) }'; }
MAP_NOTICE='this kernel cannot map the ring buffer: needs Linux 6.10+'
NO_MAP_WHY='this kernel cannot map the ring buffer (Linux 6.10+): mapping only'
errors() { if can_map; then cat "$1"; else grep -vF "$MAP_NOTICE" "$1" || true; fi; }

# Wall time of a part of a run, for make check's time table: since=$(uptime_s)
# before it, report_time NAME "$since" after it ("TIME: NAME SECONDS" on
# the status channel, which the host's Makefile reads).
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# uptime_cs_now: NOW_CS, the time since boot in centiseconds (for
# durations in shell arithmetic), without a fork (/proc/uptime has two
# decimals; the "1" before them keeps "05" from reading as octal).
# uptime_cs prints it.
uptime_cs_now() {
	local up rest
	read -r up rest </proc/uptime
	NOW_CS=$((${up%.*} * 100 + 1${up#*.} - 100))
}
uptime_cs() {
	uptime_cs_now
	echo "$NOW_CS"
}
report_time() {
	[ -z "${RESULT_CHANNEL:-}" ] ||
		echo "TIME: $1 $(awk -v s="$2" '{ printf "%.1f", $1 - s }' /proc/uptime)" >>"$RESULT_CHANNEL"
}

# header_page FIELD KEY: KEY (offset or size) of FIELD (commit or data) in
# events/header_page, the sub-buffer header of this kernel. The commit word
# is a long: 8 bytes and data at byte 16 on a 64-bit kernel, 4 bytes and
# data at byte 12 on a 32-bit one (whatever the reading process's long).
header_page() {
	sed -n "s/.*field: [a-z_0-9]* $1;.*$2:\([0-9]*\);.*/\1/p" $TRACEFS/events/header_page
}

# subbuf_bytes: the top-level buffer's sub-buffer size in bytes, as the
# kernel gives it (buffer_subbuf_size_kb read back). A size asked for is
# rounded up to a power-of-two number of pages: asking 4 KiB gives 4 KiB on
# a 4 KiB-page kernel and 64 KiB on a 64 KiB-page one. Before 6.8 there
# is no such file and a sub-buffer is one page.
subbuf_bytes() {
	if [ -f $TRACEFS/buffer_subbuf_size_kb ]; then
		echo $(($(cat $TRACEFS/buffer_subbuf_size_kb) * 1024))
	else
		page_bytes
	fi
}

# page_bytes: the kernel's page size (that of awk's first mapping, in its
# /proc/self/smaps; busybox has no getconf).
page_bytes() { awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps; }

# nap SECONDS: sleep without a fork, in a read whose timeout ends it, on a
# FIFO no one writes to. Under TCG "sleep 0.02" took 30 ms (the fork
# alone 6 ms), "nap 0.02" 21 ms (50 of each, 6 December 2026): the polls
# that wait for a program's exit look every 20 ms with it.
NAP_FIFO=/tmp/.guest-lib-nap
nap() {
	local unused
	[ -p $NAP_FIFO ] || mkfifo $NAP_FIFO 2>/dev/null || [ -p $NAP_FIFO ] || {
		sleep "$1"
		return 0
	}
	read -r -t "$1" unused <>$NAP_FIFO
	return 0
}

# trace_reset [KB [SUBBUF_KB]]: the top-level tracing buffer reset to a
# known state: tracing on, no tracer, overwrite mode, empty, KB per CPU
# (default TRACE_BUFFER_KB, from vm/guest.conf) in sub-buffers of
# SUBBUF_KB (default 4). A new sub-buffer size reallocates the buffer at
# about the bytes it had, rounded up to whole sub-buffers: a buffer that is
# to be smaller is shrunk first, and the size is written again after.
trace_reset() {
	local kb sub want=${1:-$TRACE_BUFFER_KB} new=${2:-4}
	echo 0 >$TRACEFS/tracing_on
	echo nop >$TRACEFS/current_tracer
	echo 1 >$TRACEFS/options/overwrite
	read -r kb <$TRACEFS/buffer_size_kb || kb=
	read -r sub <$TRACEFS/buffer_subbuf_size_kb || sub=
	if [ "$sub" != "$new" ]; then
		[ "$want" -ge "$kb" ] 2>/dev/null || echo "$want" 2>/dev/null >$TRACEFS/buffer_size_kb
		echo "$new" >$TRACEFS/buffer_subbuf_size_kb
		TRACE_BUFFER_READ=
	fi
	# The size, unless it reads as it did after this script's last write of
	# it, of the same size (1408 reads back as 1410): a write of the same
	# size still costs 16 ms under TCG.
	if [ "$kb" != "${TRACE_BUFFER_READ:-}" ] || [ "$want" != "${TRACE_BUFFER_SET:-}" ]; then
		TRACE_BUFFER_READ= TRACE_BUFFER_SET=
		! echo "$want" 2>/dev/null >$TRACEFS/buffer_size_kb ||
			{ read -r TRACE_BUFFER_READ <$TRACEFS/buffer_size_kb && TRACE_BUFFER_SET=$want; } ||
			TRACE_BUFFER_READ=
	fi
	echo >$TRACEFS/trace
	echo 1 >$TRACEFS/tracing_on
}

# A discarded event on CPU 0, left in the ring buffer as padding with a
# time delta (lab 06, docs-claims-rb). discard_arm DFD: a disable_event
# trigger on sys_enter_openat turns that event off as it is committed, so
# the kernel discards it (__event_trigger_test_discard(),
# kernel/trace/trace.h); the trigger's filter reads the file name, which
# faults at address 0, and the fault's exceptions:page_fault_kernel event
# is written behind the openat event first, so the kernel cannot give the
# space back (rb_try_to_discard(), kernel/trace/ring_buffer.c). DFD picks
# the call: discard_make DFD makes it, openat(DFD, NULL); the trigger fires
# once, arm again for another. discard_disarm undoes it all.
DISCARD_OPENAT=$TRACEFS/events/syscalls/sys_enter_openat
DISCARD_FAULT=$TRACEFS/events/exceptions/page_fault_kernel
discard_arm() {
	discard_disarm
	echo 'address == 0' >$DISCARD_FAULT/filter && echo 1 >$DISCARD_FAULT/enable &&
		echo 1 >$DISCARD_OPENAT/enable &&
		echo "disable_event:syscalls:sys_enter_openat if filename.ustring ~ \"tmg-discard\" || dfd == $1" >$DISCARD_OPENAT/trigger
}
discard_make() { taskset -c 0 check_aid openat-null "$1"; }
discard_disarm() {
	echo '!disable_event:syscalls:sys_enter_openat' >$DISCARD_OPENAT/trigger 2>/dev/null
	echo 0 >$DISCARD_OPENAT/enable 2>/dev/null
	echo 0 >$DISCARD_FAULT/enable 2>/dev/null
	echo 0 >$DISCARD_FAULT/filter 2>/dev/null
	return 0
}

# check_rows WANT_FILE GOT: compare a demo's "operation | result | errno"
# table (GOT, its output) with the one the guide shows (WANT_FILE, a
# transcript): one result per row, named "row-N-operation", then one for rows
# the guide does not show.
check_rows() {
	local want=$1 got=$2 n=0 line op name seen
	[ -f "$want" ] || { fail rows "no table $want"; return; }
	while IFS= read -r line; do
		n=$((n + 1))
		op=${line%% |*}
		name=row-$n-$(echo "$op" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
		seen=$(printf '%s\n' "$got" | sed -n "${n}p")
		expect_eq "$name" "$line" "$seen"
	done <"$want"
	expect_eq rows-count "$n" "$(printf '%s\n' "$got" | wc -l)"
}

# event_burst N [report]: N lines "event I" (I from 0) to trace_marker from
# CPU 0 through one open file, as fast as the shell goes (the transcripts'
# overrun); with "report", then the line "writes that failed: K".
event_burst() {
	taskset -c 0 sh -c 'i=0 failed=0
		while [ $i -lt '"$1"' ]; do
			echo "event $i" 2>/dev/null || failed=$((failed + 1))
			i=$((i + 1))
		done >'$TRACEFS/trace_marker' 2>/dev/null
		[ -z "'"${2:-}"'" ] || echo "writes that failed: $failed"'
}

# wait_asleep PID [SECONDS]: wait (up to SECONDS, default 30) until PID
# sleeps and has used no CPU for 0.3 s: done starting, waiting for events.
# Fails when it ended or did not settle.
wait_asleep() {
	local i=0 was='' now
	while [ $i -lt $((${2:-30} * 10 / 3)) ]; do
		now=$(awk '{ print $3, $14 + $15 }' /proc/$1/stat 2>/dev/null) || return 1
		case $now in S*) [ "$now" = "$was" ] && return 0 ;; esac
		was=$now
		sleep 0.3
		i=$((i + 1))
	done
	return 1
}

# wait_catches PID SIG [SECONDS]: wait (up to SECONDS, default 30) until
# PID has a handler for signal number SIG (its SigCgt mask in
# /proc/PID/status): a signal sent before that would kill it instead.
# Fails when it ended or did not get there.
wait_catches() {
	local i=0 key mask
	while [ $i -lt $((${3:-30} * 10)) ]; do
		[ -r /proc/$1/status ] || return 1
		mask=0
		while read -r key mask; do
			[ "$key" = SigCgt: ] && break
			mask=0
		done </proc/$1/status
		[ $((0x${mask:-0} >> ($2 - 1) & 1)) = 1 ] && return 0
		nap 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_output FILE TEXT [SECONDS]: wait (up to SECONDS, default 60) until
# FILE has a line ending in TEXT (a program's flushed output). Fails if
# it did not come.
wait_output() {
	local i=0
	while [ $i -lt $((${3:-60} * 10)) ]; do
		grep -q -- "$2\$" "$1" 2>/dev/null && return 0
		nap 0.1
		i=$((i + 1))
	done
	return 1
}

# pingpong_order CLOCK N: on trace clock CLOCK, N trace_marker lines
# "step I", written in turn from CPU 0 and CPU 1, each after the one before
# has returned; then trace_stream merges both CPUs by time stamp. Prints
# "CLOCK: K events merged, in write order: yes" or "... no (step I after
# step J)". Leaves the buffer reset on the local clock.
pingpong_order() {
	local i=1 out=/tmp/pingpong.out
	trace_reset
	echo "$1" >$TRACEFS/trace_clock
	while [ $i -le "$2" ]; do
		taskset -c $((i % 2)) sh -c "echo 'step $i' >$TRACEFS/trace_marker"
		i=$((i + 1))
	done
	trace_stream --nonblock >$out
	awk -v clock="$1" '$3 == "ftrace/print" && $4 == "step" {
			n++
			if (bad == "" && $5 < last) bad = "step " $5 " after step " last
			last = $5
		}
		END { printf "%s: %d events merged, in write order: %s\n", clock, n,
			bad == "" ? "yes" : "no (" bad ")" }' $out
	rm -f $out
	echo local >$TRACEFS/trace_clock
	trace_reset
}

# The sequenced producer, the project's module examples/modules/seq_producer.
SEQ_PARAMS=/sys/module/seq_producer/parameters
SEQ_MODULE=$GUEST_PREFIX/modules/seq_producer.ko

# seq_load [PARAM=VALUE...]: load the producer (fails if it is loaded).
seq_load() { insmod $SEQ_MODULE "$@"; }

# seq_configure CPU COUNT SIZE RATE: the parameters of the next run.
seq_configure() {
	echo "$1" >$SEQ_PARAMS/cpu && echo "$2" >$SEQ_PARAMS/count &&
		echo "$3" >$SEQ_PARAMS/size && echo "$4" >$SEQ_PARAMS/rate
}

# seq_stream_run NAME PID OUT SECONDS: once trace_stream PID (writing OUT)
# is asleep, done starting, start the configured producer run, wait for its end (up to SECONDS), stop
# trace_stream with SIGINT; sets rc (its exit status), delivered (its
# seq_event lines), missed (the sum of its missed counts) and cs (the
# run's centiseconds), and says them on one line.
seq_stream_run() {
	local t0
	wait_asleep "$2" || fail "$1/started" "trace_stream did not settle in 30 s"
	t0=$(uptime_cs)
	echo 1 >$SEQ_PARAMS/run
	seq_wait_end "$4" || fail "$1/run-ends" "the producer still runs after $4 s"
	cs=$(($(uptime_cs) - t0))
	sleep 1
	kill -INT "$2"
	wait "$2"
	rc=$?
	delivered=$(grep -c ' seq_producer/seq_event ' "$3")
	missed=$(awk '$3 == "missed" { s += $4 } END { print s + 0 }' "$3")
	echo "$1: delivered $delivered, missed $missed, produced $(cat $SEQ_PARAMS/produced) in $cs cs"
}

# seq_wait_end SECONDS: true once the current run has ended. Looks every
# 20 ms: most runs of the checks end within 0.1 s.
seq_wait_end() {
	local n=$(($1 * 50)) run
	while read -r run <$SEQ_PARAMS/run && [ "$run" = 1 ]; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		nap 0.02
	done
}

# full_subbuf: "KB PAYLOAD", the smallest sub-buffer size (4, 8 or 16 KiB)
# and the payload of the smallest record from 48 bytes up that fill its
# data to the byte, leaving no room for the count (an unsigned long) after
# them. A record is a 4-byte header (8 with over 112 bytes after it),
# then seq_producer:seq_event's 24 bytes of fields before the payload
# (trace_entry, seq, len, the payload's __data_loc), then the payload. On a 64-bit
# kernel 4 KiB hold 4080 data bytes: 85 records of 48 (a payload of 20).
# On a 32-bit one 4084 = 4 x 1021, which no record this tries (48 to 2080
# bytes, two or more a sub-buffer) fills, and 8 KiB hold
# 8180: 5 records of 1636 (1604).
full_subbuf() {
	local kb data r
	for kb in 4 8 16; do
		data=$((kb * 1024 - $(header_page data offset))) r=48
		while [ $r -le 2080 ]; do
			if [ $((data % r)) = 0 ] && [ $r -le 116 ]; then
				echo "$kb $((r - 28))" && return
			elif [ $((data % r)) = 0 ] && [ $r -ge 124 ]; then
				echo "$kb $((r - 32))" && return
			fi
			r=$((r + 4))
		done
	done
}
