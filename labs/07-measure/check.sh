#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 07 in the guest: the same producer (a seq_producer run on a
# CPU chosen per run, its event count and payload size chosen per run, in
# 32 or 64 KiB sub-buffers; its first few events of another size, so that
# the first sub-buffer ends 4 bytes short of full and the next one at the
# end) drained by the learner's ./measure with read() and through the
# mapping; both must see every event and byte. Another CPU holds other
# events, and is drained next (after a few more events on the first CPU;
# the mapping drain with LAB_LAYOUT_610=1, labs/lab.h's 6.10 layout), so
# that a drain of a fixed CPU fails in one of the two; the kernel's
# per_cpu/cpuN/stats say whose events a run took. Then a second drain of
# the first CPU must count the few events more, which the writer put on
# the reader sub-buffer the first drain left, and no more. A fourth read()
# drain runs in 128 KiB sub-buffers. A third
# mapping drain runs while the writer adds to the reader sub-buffer: each
# of its first N GET_READER calls (N chosen per run) has the kernel write
# one syscalls:sys_exit_ioctl event onto the buffer of the CPU it runs on
# as the call returns (event triggers, filtered by its pid), so the next
# call finds the same reader.id with a larger reader.read; meanwhile
# another process makes system calls on another CPU. Every run's system
# calls are recorded (a tracefs instance, syscall events of its pid): the
# read() sizes it really used, the bytes read() returned, its GET_READER
# calls, and how long it ran, against which its output and its usec are
# judged.
# The timings are printed.
#   sh check.sh DIR
SUITE=${SUITE:-labs/07-measure}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" measure step-1-read
rm -f /tmp/lab07-noise # a check that was stopped may have left it
# Within the 1408 KiB buffer: at most 12000 events of 88 bytes; in
# sub-buffers of 32 or 64 KiB, so that a read() buffer of a fixed 4096
# bytes, or of 16 KiB, does not pass (nor one of a fixed 64 KiB, the
# page's transcript's, in the read() step's 128 KiB drain: read_128k).
total=$(rand 6000 12000) size=$(rand 4 16) subbuf_kb=$((32 * $(rand 1 2)))
# The other CPU's events (another count than the first CPU's).
total_b=$(rand 1000 3000)
cpus=$(ls -d $TRACEFS/per_cpu/cpu[0-9]* | sed 's|.*/cpu||')
ncpu=$(echo $cpus | wc -w)
size=$((size * 4))
subbuf=$((subbuf_kb * 1024)) subbuf_kb0=$subbuf_kb
extra=$(rand 2 9)
# Each seq_event: struct trace_entry (8), seq (8), len (4), the payload's
# __data_loc word (4), then the payload; rounded up to 4 bytes.
# A sub-buffer holds subbuf - 16 bytes of data (after its header). One
# whose last event leaves fewer than 8 bytes (records being multiples of
# 4: 4 bytes) gets only a padding header there, outside its data, which
# ends 4 bytes short of the end; one that leaves 8 or more, padding to the
# end (rb_reset_tail(), kernel/trace/ring_buffer.c: "No room for any events").
# The first CPU's events are all of one size but for the first pre of
# them, of size_pre (4 bytes more or fewer), written a second before the
# rest (so that a time extend of 8 bytes comes before the rest: the first
# event of a sub-buffer has none), pre chosen so that the first
# sub-buffer ends 4 bytes short and the next one, full of events of one
# size, at the end: a mapping drain that keeps its offset on a new
# reader.id (resetting it only when it is past the new reader.read) skips
# that next sub-buffer. Events of one size alone leave every full
# sub-buffer at the same commit; of 40 bytes, in 64 KiB sub-buffers, all
# 4 bytes short, so that size is not chosen. In the sub-buffer each event
# is a record of 4 bytes more (its header: rb_calculate_event_length()).
data=$((subbuf - 16))
[ $(((data - 4) % (28 + size))) != 0 ] || size=$((size + 4))
event_bytes=$(((24 + size + 3) / 4 * 4))
size_pre=$((size + 4))
[ $size != 64 ] || size_pre=60
pre_bytes=$((24 + size_pre))
pre=1
while [ $(((data - 12 - pre * (pre_bytes + 4)) % (event_bytes + 4))) != 0 ]; do pre=$((pre + 1)); done
want_bytes=$((pre * pre_bytes + (total - pre) * event_bytes))
# A sys_exit_ioctl event: struct trace_entry (8), nr (4, then 4 of
# padding), ret (8).
ioctl_bytes=24
# A fixed timeout only for a program that never ends: a drain of 12000
# events takes well under a second even on a loaded guest.
limit=120
inst=$TRACEFS/instances/lab07
sysev=$TRACEFS/events/syscalls rawev=$TRACEFS/events/raw_syscalls
traced="sys_enter_execve sys_enter_exit_group sys_enter_openat sys_exit_openat sys_enter_read sys_exit_read sys_enter_ioctl sys_exit_ioctl sys_enter_mmap"
LAB_CLEANUP='noise_stop; writer_off; rmdir $inst 2>/dev/null'
# line_of MODE OUTPUT: "EVENTS BYTES USEC" from the "MODE events N bytes B
# usec T" line, empty when there is none.
line_of() { echo "$2" | sed -n "s/^$1 events \([0-9]*\) bytes \([0-9]*\) usec \([0-9]*\)$/\1 \2 \3/p"; }

# writer_on N: in the next traced_run, each of the program's first N
# ioctl() calls has one sys_exit_ioctl event written as the call returns,
# on the CPU it ran on: the program's sys_enter_ioctl enables
# sys_exit_ioctl N times; its raw_syscalls:sys_exit, whose probe runs
# after sys_exit_ioctl's (it is registered later), disables it again at
# each of its system calls' return. Both triggers are filtered by the
# program's pid (traced_run writes them): unfiltered, another process's
# system call returning while a GET_READER ran turned the event off before
# that call's return, the chain of events ended early and the drain's last
# call, its trigger count not spent, left one event behind: a right drain
# failed (1 run in 85 under load; 11 in 25 beside traced_run's other
# process; filtered, 0 in 25). An event that disables itself would be
# discarded at its commit.
writer_on() { writer_n=$1; }
writer_off() {
	echo "!enable_event:syscalls:sys_exit_ioctl:${writer_n:-1}" >$sysev/sys_enter_ioctl/trigger 2>/dev/null
	echo '!disable_event:syscalls:sys_exit_ioctl' >$rawev/sys_exit/trigger 2>/dev/null
	writer_n=0
}
# noise_stop: the writer's other process (traced_run) killed, and gone
# within 5 s (it also ends by itself once the program has).
noise_stop() {
	local pid
	[ -f /tmp/lab07-noise ] || return 0
	pid=$(cat /tmp/lab07-noise)
	rm -f /tmp/lab07-noise
	kill "$pid" 2>/dev/null
	wait_exit "$pid" 5 || kill -9 "$pid" 2>/dev/null
}
# cpu_stat CPU NAME: a line of per_cpu/cpuCPU/stats ("entries", "read events").
cpu_stat() { sed -n "s/^$2: *//p" $TRACEFS/per_cpu/cpu$1/stats; }
# any_cpu, other_cpu CPU: a CPU chosen per run; one other than CPU.
any_cpu() { rand 0 $((ncpu - 1)); }
other_cpu() { echo $((($1 + $(rand 1 $((ncpu - 1)))) % ncpu)); }

# The trace of the instance, read by trace_awk: shell assignments of what
# the program did after its last execve. Its trace_pipe_raw is the file
# whose read() got EAGAIN or more than 64 bytes, else the last one opened
# O_NONBLOCK; of it: t_nonblock 1 if opened O_NONBLOCK, t_reads read() calls, t_okreads that returned data,
# t_bytes bytes returned, t_mincount the smallest count asked, t_span_read
# microseconds from its first read() to its last one's return; t_gr
# GET_READER calls, t_span_gr microseconds from the first to the last
# one's return, t_grwait 1 when the last one never returned or was
# interrupted (the program ended by the timeout while asleep in it);
# t_fmaps mmap() calls of a file; t_life microseconds from exec to
# exit_group.
trace_awk='
function hex(s,   i, c, v) {
	v = 0
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		if (c < 0)
			break
		v = v * 16 + c
	}
	return v
}
function arg(name,   s) {
	s = $0
	if (!sub(".*[(, ]" name ": ", "", s))
		return ""
	sub(/[,)].*/, "", s)
	return s
}
{
	ts = ""
	for (i = 1; i < NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			ts = substr($i, 1, length($i) - 1) * 1000000
			break
		}
	if (ts == "")
		next
}
/ sys_execve\(/ {
	start = ts; nf = 0; gr = 0; fmaps = 0; end = ""; grf = ""
	split("", file); split("", reads); split("", ok); split("", bytes)
	split("", minc); split("", eagain); split("", nonblock); split("", rf); split("", rl)
	next
}
/ sys_exit_group\(/ { end = ts; next }
/ sys_openat\(/ { oflags = hex(arg("flags")); next }
/ sys_openat -> / {
	if ($NF !~ /^0xffffffff/) {
		file[hex($NF)] = ++nf
		nonblock[nf] = int(oflags / 2048) % 2
	}
	next
}
/ sys_read\(/ { rfd = hex(arg("fd")); rcount = hex(arg("count")); rts = ts; next }
/ sys_read -> / {
	f = file[rfd]
	if (f == "")
		next
	reads[f]++
	if (rf[f] == "")
		rf[f] = rts
	rl[f] = ts
	if (minc[f] == "" || rcount < minc[f])
		minc[f] = rcount
	if ($NF == "0xfffffffffffffff5")
		eagain[f] = 1
	else if ($NF !~ /^0xffffffff/ && hex($NF) > 0) {
		ok[f]++
		bytes[f] += hex($NF)
	}
	next
}
/ sys_ioctl\(/ { isgr = arg("cmd") == "5220"; if (isgr) { gr++; grret = ""; if (grf == "") grf = ts }; next }
/ sys_ioctl -> / { if (isgr) { grl = ts; grret = $NF }; next }
/ sys_mmap\(/ { if (arg("fd") !~ /^ffffffff/) fmaps++; next }
END {
	p = ""
	for (f = 1; f <= nf; f++)
		if (eagain[f] || bytes[f] > 64)
			p = f
	if (p == "")
		for (f = 1; f <= nf; f++)
			if (nonblock[f] && reads[f])
				p = f
	printf "t_reads=%d t_okreads=%d t_bytes=%d t_mincount=%s t_nonblock=%d ", reads[p], ok[p], bytes[p], minc[p], nonblock[p]
	printf "t_span_read=%d t_gr=%d t_span_gr=%d t_grwait=%d t_fmaps=%d t_life=%s\n",
		p == "" ? 0 : rl[p] - rf[p], gr, grf == "" ? 0 : grl - grf,
		(gr > 0 && (grret == "" || grret ~ /^0xf+(e00|c)$/)), fmaps, end == "" ? "" : end - start
}'

# traced_run MODE CPU: ./measure CPU MODE on CPU, as run_prog runs it
# (with LAB_LAYOUT_610=1 in its environment when layout610 is set), its
# system calls recorded; sets prog_out, prog_rc, then events, bytes and
# usec from its line, the t_ variables of trace_awk, run_cpu (CPU), took
# (the events the kernel's reader took from CPU's buffer during the run:
# stats' read events), left (CPU's entries after it), and other_cpu and
# other_took when it took events from another CPU's buffer.
traced_run() {
	local e c d
	run_cpu=$2
	for c in $cpus; do eval "took_$c=\$(cpu_stat $c 'read events')"; done
	[ -d $inst ] || { mkdir $inst && echo mono >$inst/trace_clock; }
	echo 0 >$inst/tracing_on
	echo >$inst/trace
	for e in $traced; do echo 1 >$inst/events/syscalls/$e/enable; done
	echo 1 >$inst/tracing_on
	# The program keeps this shell's pid (exec): the instance's pid filter
	# and the writer's triggers (writer_on) name it before it starts. With
	# the writer on, another process makes system calls on another CPU
	# while the program runs, as in a learner's busy guest: the writer
	# must not depend on their absence. It starts after the triggers are
	# written and stops before they are removed: under TCG, system calls
	# made while the kernel rewrites the syscall tracepoints' call sites
	# can panic the guest (seen once: Oops: int3 in syscall_trace_enter,
	# the trap docs/vm.rst describes).
	# The wrapper exits 125 (before the program runs) when it cannot write
	# the triggers: the check's failure, not the program's.
	run_prog $limit sh -c 'echo $$ >"$0/set_event_pid" || exit 125
		if [ "$1" -gt 0 ]; then
			echo "enable_event:syscalls:sys_exit_ioctl:$1 if common_pid == $$" >"$2/syscalls/sys_enter_ioctl/trigger" &&
				echo "disable_event:syscalls:sys_exit_ioctl if common_pid == $$" >"$2/raw_syscalls/sys_exit/trigger" ||
				exit 125
			if [ -n "$4" ]; then
				taskset -c "$4" sh -c "while [ -d /proc/$$ ]; do : </dev/null; done" >/dev/null 2>&1 </dev/null &
				echo $! >/tmp/lab07-noise
			fi
		fi
		c=$3 && shift 4 && exec taskset -c "$c" "$@"' \
		$inst "${writer_n:-0}" $TRACEFS/events $2 "$([ "$ncpu" -gt 1 ] && other_cpu $2)" ${layout610:+env LAB_LAYOUT_610=1} "$dir/measure" $2 $1
	noise_stop
	if [ "$prog_rc" = 125 ]; then
		prog_cmd=''
		fail "$step" "the check could not set up the run of ./measure (the instance's set_event_pid or the writer's event triggers; not your program's fault): ${prog_out:-no message}"
		exit 1
	fi
	prog_cmd="${layout610:+LAB_LAYOUT_610=1 }./measure $2 $1"
	echo 0 >$inst/tracing_on
	for e in $traced; do echo 0 >$inst/events/syscalls/$e/enable; done
	echo >$inst/set_event_pid
	took=0 other_cpu='' other_took=0
	for c in $cpus; do
		eval "d=\$((\$(cpu_stat $c 'read events') - took_$c))"
		if [ $c = $2 ]; then
			took=$d
		elif [ $d -gt 0 ] && [ -z "$other_cpu" ]; then
			other_cpu=$c other_took=$d
		fi
	done
	left=$(cpu_stat $2 entries)
	t_reads=0 t_okreads=0 t_bytes=0 t_mincount='' t_nonblock=0 t_span_read=0 t_gr=0 t_span_gr=0 t_grwait=0 t_fmaps=0 t_life=''
	eval "$(awk "$trace_awk" $inst/trace)"
	set -- $(line_of $1 "$prog_out")
	events=${1:-} bytes=${2:-} usec=${3:-}
	echo "$prog_out"
}

# judge MODE WANT_EVENTS WANT_BYTES: the hint for what is wrong with the
# last traced_run of ./measure CPU MODE (empty when nothing is).
judge() {
	if [ -n "$other_cpu" ]; then
		echo "asked for CPU $run_cpu ('$prog_cmd'), it took $other_took events from CPU $other_cpu's buffer (per_cpu/cpu$other_cpu/stats: read events) and $took from CPU $run_cpu's: $([ $1 = read ] && echo "open the trace_pipe_raw of the CPU its first argument names (per_cpu/cpuN/), not a fixed per_cpu/cpu$other_cpu" || echo "map the buffer of the CPU its first argument names (lab_map(&m, cpu, ...)), not a fixed CPU $other_cpu")"
	elif [ "$prog_rc" = 124 ] || [ "$prog_rc" = 143 ]; then
		if [ $1 = read ]; then
			echo "still running after $limit s: does the read() drain stop at EAGAIN (trace_pipe_raw opened with O_NONBLOCK)?"
		elif [ "$t_grwait" = 1 ]; then
			echo "still running after $limit s, asleep in a GET_READER call (ioctl 0x5220) that never returned: on a blocking file GET_READER waits for the writer (buffer_percent) when nothing is new; map the file non-blocking: lab_map(&m, cpu, O_NONBLOCK)"
		else
			echo "still running after $limit s: does the drain stop when GET_READER brings nothing new (the same reader.id, the same reader.read)?"
		fi
	elif crashed "$prog_rc"; then
		echo "it crashed, $(status_text $prog_rc)$([ $1 = mmap ] && echo ": is each sub-buffer's address computed from the reader.id of the last GET_READER?")"
	elif [ $1 = read ] && [ -n "$t_mincount" ] && [ "$t_mincount" -lt $subbuf ]; then
		echo "its read()s of trace_pipe_raw asked for as few as $t_mincount bytes, a sub-buffer is $subbuf here (buffer_subbuf_size_kb * 1024): a shorter read() gets only the events that fit (0 bytes when not even the first one does), then the next read() the rest of the kernel's copy, which holds none ($t_reads read()s for ${events:-?} events); read a whole sub-buffer at a time, of the size buffer_subbuf_size_kb says"
	elif [ -z "$events" ] && [ $1 = mmap ] && [ -n "${layout610:-}" ] && echo "$prog_out" | grep -q 'commit runs past its end\|cannot be right at byte'; then
		echo "it printed: $(echo "$prog_out" | tail -n 1): in 6.10's layout (LAB_LAYOUT_610=1) the meta-page is one page, meta_page_size $(page_bytes), and a sub-buffer $subbuf bytes: give count() the sub-buffer lab_subbuf(&m, id) and its size, m.meta->subbuf_size, not meta_page_size (in 6.12 they are always equal; in 6.10 only when a sub-buffer is one page)"
	elif [ -z "$events" ] && [ $1 = mmap ] && echo "$prog_out" | grep -q 'commit runs past its end\|cannot be right at byte'; then
		echo "it printed: $(echo "$prog_out" | tail -n 1): is count() given the sub-buffer of the last reader.id? Take its address from lab_subbuf(&m, id): after the meta-page (meta_page_size bytes, a sub-buffer's size in 6.12's layout, not a page), sub-buffer after sub-buffer of m.meta->subbuf_size bytes"
	elif [ -z "$events" ]; then
		echo "want one line '$1 events N bytes B usec T'$([ -z "$prog_out" ] || echo "; it printed: $(echo "$prog_out" | tail -n 1)")"
	elif [ $1 = read ] && [ "$bytes" -gt "$t_bytes" ]; then
		echo "it printed $events events of $bytes bytes, but its read()s of trace_pipe_raw returned $t_bytes bytes in all ($t_okreads read()s with data): count the events in what read() returns"
	elif [ $1 = mmap ] && [ "$events" -gt 0 ] && [ "$t_gr" = 0 ]; then
		echo "it printed $events events, but called no GET_READER (ioctl 0x5220): the mapping drain takes its events from the mapped sub-buffers the ioctl hands over"
	elif [ $1 = mmap ] && [ "$t_okreads" -gt 0 ] && [ "$t_nonblock" = 1 ]; then
		echo "the mapping drain read() trace_pipe_raw ($t_okreads read()s returned $t_bytes bytes): take the events from the mapping, with GET_READER"
	elif [ "$events" = 0 ] && [ $1 = read ]; then
		echo "0 events, want $2: a read() shorter than the first event returns 0: is the buffer buffer_subbuf_size_kb * 1024 bytes?"
	elif [ $1 = read ] && [ "$events" -lt $2 ] && [ "$left" = 0 ] && [ "$took" -ge $2 ]; then
		echo "$events events, want $2: its read()s took all $took from the buffer (per_cpu/cpu$run_cpu/stats: read events $took, entries 0) and returned $t_bytes bytes, it counted fewer: events taken but not counted: where does count() start? Its from and end are data offsets, from 0 (the first event, right after the header) to lab_commit()"
	elif [ $1 = mmap ] && [ "$events" -lt $2 ] && [ "$left" = 0 ] && [ "$took" -ge $2 ]; then
		echo "$events events, want $2: its GET_READER calls handed over all $took (per_cpu/cpu$run_cpu/stats: read events $took, entries 0), it counted fewer: count the bytes each call brings, from offset 0 of a sub-buffer with a new reader.id (its data starts there), on the same reader.id from where the last call stopped, up to the new reader.read"
	elif [ "$events" -lt $2 ]; then
		echo "$events events, want $2: drain until nothing is left$([ $1 = read ] && echo " (each read() gives one sub-buffer; loop until EAGAIN; the read() buffer must hold a whole sub-buffer, $subbuf_kb KiB here)" || echo " (call GET_READER until it brings nothing new)")"
	elif [ "$events" -gt $2 ] && [ $1 = read ]; then
		echo "$events events, want $2: a read() buffer shorter than the sub-buffer ($subbuf_kb KiB here) gets part of it, then the rest of the kernel's copy, which holds no events: read buffer_subbuf_size_kb * 1024 bytes at a time"
	elif [ "$events" -gt $2 ]; then
		echo "$events events, want $2: events counted twice; on the same reader sub-buffer, count only from where the last call stopped"
	elif [ "$bytes" != $3 ]; then
		echo "$bytes payload bytes, want $3 ($2 events of $event_bytes bytes)"
	fi
}

# writer_drain: a mapping drain while the writer adds to the reader
# sub-buffer, on a CPU chosen per run. The kernel counts the events a
# reader took ("read events") and those still there ("entries"): the drain
# must count the first and leave none. Sets what (the scenario) and why3
# (the hint, empty when the drain was right).
writer_drain() {
	local c
	c=$(any_cpu)
	total3=$(rand 2000 6000) calls=$(rand 300 500)
	trace_reset "" $subbuf_kb
	seq_produce $total3 $size $c
	writer_off # one left by a check that was stopped
	writer_on $calls
	traced_run mmap $c
	writer_off
	added=$((took + left - total3))
	what="third drain, of CPU $c while the writer adds ($total3 seq_event and $added sys_exit_ioctl events, one written as each of its first ioctl() calls returned, onto the reader sub-buffer once the drain has caught up)"
	why3=$(judge mmap $took $((total3 * event_bytes + (took - total3) * ioctl_bytes)))
	if [ -z "$other_cpu" ] && [ -n "$events" ] && [ "$prog_rc" = 0 ] && [ "$events" -lt "$took" ]; then
		why3="$what: $events events counted, but GET_READER handed over $took: a call can bring the same reader.id with a larger reader.read, the writer having added to the reader sub-buffer; count those bytes too and go on until a call brings nothing new (the same reader.id and reader.read), not only until the reader.id stops changing"
	elif [ -z "$why3" ] && [ "$left" != 0 ]; then
		why3="$what: it counted the $took events GET_READER handed over, but stopped with $left left in the buffer: a call brought the same reader.id with a larger reader.read (the writer added to the reader sub-buffer while it drained) and it took that for the end: either it stops at the first call that brings the same reader.id (count those bytes and go on until a call brings nothing new: the same reader.id and the same reader.read), or it counted past reader.read, up to the sub-buffer's commit, so that the call that handed those bytes over looked like nothing new (count only up to reader.read: what is past it the kernel has not handed over), or it stops on something else, such as the meta-page's entries, overrun and read (they count what was written when the call returned: the writer can add more; stop only when a call brings nothing new)"
	elif [ -n "$why3" ]; then
		why3="$what: $why3"
	fi
}

# read_128k CPU: a read() drain of CPU in 128 KiB sub-buffers, larger
# than the run's, so that a read() buffer of a fixed 64 KiB (the page's
# transcript's sub-buffer) does not pass. Sets why (empty when the drain
# was right).
read_128k() {
	local n kb
	n=$(rand 1000 3000)
	trace_reset "" 128
	read -r kb <$TRACEFS/buffer_subbuf_size_kb
	if [ "$kb" != 128 ]; then
		note "    (no drain in 128 KiB sub-buffers: buffer_subbuf_size_kb is $kb)"
		return 0
	fi
	seq_produce $n $size $1
	subbuf_kb=128 subbuf=131072
	traced_run read $1
	why=$(judge read $n $((n * event_bytes)))
	subbuf_kb=$subbuf_kb0 subbuf=$((subbuf_kb0 * 1024))
	[ -z "$why" ] || why="fourth drain, of CPU $1 in 128 KiB sub-buffers ($n events): $why"
}

# Drain with ./measure CPU MODE, for each MODE: the first drain of CPU a,
# then of CPU b (another, holding other events), then a second one of a;
# sets $usec_MODE, $span_MODE (the first drain's system calls, in
# microseconds) and $life_MODE (the program's), and $why_MODE for a drain
# whose counts were wrong.
for mode in read mmap; do
	step=step-$([ $mode = read ] && echo 1 || echo 2)-$mode
	a=$(any_cpu)
	b=$(other_cpu $a)
	trace_reset "" $subbuf_kb
	seq_produce $pre $size_pre $a || fail $step "the seq_producer module did not load"
	sleep 1
	seq_produce $((total - pre)) $size $a
	seq_produce $total_b $size $b
	traced_run $mode $a
	why=$(judge $mode $total $want_bytes)
	if [ -z "$why" ]; then
		eval "usec_$mode=\$usec life_$mode=\$t_life"
		eval "span_$mode=\$t_span_$([ $mode = read ] && echo read || echo gr)"
		# The writer's page is now CPU a's reader sub-buffer: more
		# events go there, and stay there during the drain of b.
		seq_produce $extra $size $a
		# The mapping drain of b in 6.10's layout (labs/lab.h): a
		# meta-page of one page, sub-buffer 0 right after it.
		layout610=$([ $mode = read ] || echo 1)
		traced_run $mode $b
		why=$(judge $mode $total_b $((total_b * event_bytes)))
		layout610=
		[ -z "$why" ] || why="drain of CPU $b, which held $total_b events$([ $mode = read ] || echo " (with LAB_LAYOUT_610=1: 6.10's layout)"): $why"
	fi
	if [ -z "$why" ]; then
		traced_run $mode $a
		again=$events
		if [ -n "$other_cpu" ]; then
			why="second drain of CPU $a: $(judge $mode $extra $((extra * event_bytes)))"
		elif [ -z "$again" ]; then
			why="second drain of CPU $a: want one line '$mode events N bytes B usec T'; $(status_text $prog_rc)"
		elif [ "$again" = $((total + extra)) ] || [ "$again" -gt $extra ]; then
			why="second drain of CPU $a: $again events, want the $extra written since the first drain: the writer added them to the reader sub-buffer the first drain left (same reader.id); "
			if [ $mode = mmap ] && writer_drain >/dev/null && [ -n "$events" ] && [ "$events" -gt "$took" ]; then
				why="${why}it counted that sub-buffer again from offset 0, and in a $what, it counted $events events where GET_READER handed over $took: on a call that brings the same reader.id, count from where the last call stopped (the reader.read of that call), not from 0"
			else
				why="${why}start from the meta-page's reader.read after mapping, not from 0: what is before it was read already"
			fi
		elif [ "$again" != $extra ] && [ $mode = read ]; then
			why="second drain of CPU $a: $again events, want the $extra written since the first drain: read() until EAGAIN, each read() gives what is left of one sub-buffer"
		elif [ "$again" != $extra ]; then
			why="second drain of CPU $a: $again events, want the $extra written since the first drain onto the reader sub-buffer it left (same reader.id, a larger reader.read) and, once that is full, onto the next ones: count from where the kernel's reader stood up to the new reader.read, and go on until a call brings nothing new (the same reader.id and reader.read)"
		fi
	fi
	if [ -z "$why" ] && [ $mode = read ]; then
		read_128k $a
	fi
	if [ -z "$why" ] && [ $mode = mmap ]; then
		writer_drain
		why=$why3
	fi
	if [ -z "$why" ]; then
		pass "$step"
	else
		fail "$step" "$why"
		eval "why_$mode=\$why"
	fi
done

# usec_ok MODE: the hint when MODE's usec cannot be the drain's time: less
# than its system calls took, or more than the whole program ran.
usec_ok() {
	local u s l
	eval "u=\$usec_$1 s=\$span_$1 l=\$life_$1"
	if [ "$u" -lt $((s - 1000)) ]; then
		echo "the $1 drain says usec $u, but its $([ $1 = read ] && echo "read()s" || echo "GET_READER calls") alone took $s us: time the drain with clock_gettime(CLOCK_MONOTONIC) before and after it"
	elif [ -n "$l" ] && [ "$u" -gt $((l + 1000)) ]; then
		echo "the $1 drain says usec $u, but the whole program ran $l us (exec to exit): time the drain with clock_gettime(CLOCK_MONOTONIC) before and after it"
	fi
}
if [ -n "${why_read:-}${why_mmap:-}" ]; then
	fail step-3-compare "no comparison, a drain is wrong: $([ -z "${why_read:-}" ] || echo "read(): $why_read")$([ -z "${why_read:-}" ] || [ -z "${why_mmap:-}" ] || echo "; ")$([ -z "${why_mmap:-}" ] || echo "mapping: $why_mmap")"
elif [ -n "$(usec_ok read)$(usec_ok mmap)" ]; then
	fail step-3-compare "$(usec_ok read)$([ -z "$(usec_ok read)" ] || [ -z "$(usec_ok mmap)" ] || echo "; ")$(usec_ok mmap)"
else
	note "    read(): ${usec_read} us; mmap: ${usec_mmap} us, for $total events of $size payload bytes (the first $pre of $size_pre) in $subbuf_kb KiB sub-buffers"
	pass step-3-compare
fi
trace_reset
