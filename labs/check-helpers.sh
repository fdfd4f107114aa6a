# SPDX-License-Identifier: MIT
# What the labs' check.sh scripts share, in the guest (busybox sh). A check
# sets SUITE, sources this file from the folder above its own, then calls
# lab_start. On top of the guest tests' result helpers (tests/vm/lib.sh):
#  - every failure also prints the output of the learner's program last run
#    with run_prog, indented, on the console and the status channel;
#  - LAB_FIRST_FAIL=1 ends the check at its first failure (the mutant runs
#    of "make check" use it);
#  - the tracefs settings the checks change are put back when a check ends.
. "$GUEST_PREFIX/tests/guest-lib.sh"

# The kernel's default buffer_percent, which trace_reset leaves alone.
LAB_BUFFER_PERCENT=50

# note TEXT: a line on the console and on the status channel.
note() {
	echo "$1"
	[ -n "${LAB_NO_CHANNEL:-}" ] || [ ! -w /dev/ttyS1 ] || echo "$1" >/dev/ttyS1
}
# LAB_NO_CHANNEL=1: result lines on the console only (check-all.sh reads them).
if [ -n "${LAB_NO_CHANNEL:-}" ]; then
	result() { echo "$1: $SUITE/$2${3:+: $3}"; }
fi

# The learner's program last run by run_prog: its output and exit status.
prog_out='' prog_rc=0 prog_cmd=''

fail() {
	result FAIL "$1" "$2"
	if [ -n "$prog_cmd" ]; then
		note "    '$prog_cmd' $(status_text "$prog_rc") and printed:"
		printf '%s\n' "${prog_out:-(nothing)}" | head -n 15 | while IFS= read -r l; do
			note "    | $l"
		done
	fi
	[ -z "${LAB_FIRST_FAIL:-}" ] || exit 1
}

# status_text RC: how a program ended, e.g. "exited 0", "exited 139 (SIGSEGV)".
status_text() {
	if [ "$1" = running ]; then
		echo "is still running"
	elif crashed "$1"; then
		echo "exited $1 (SIG$(kill -l $(($1 - 128))))"
	else
		echo "exited $1"
	fi
}

# crashed RC: the program died of a signal (128 + its number), not
# exit(-1), whose 255 is a plain exit.
crashed() { [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; }

# run_prog SECONDS CMD ARGS...: run the learner's program from /tmp for at
# most SECONDS (then SIGTERM: "exited 143 (SIGTERM)"); sets prog_out (stdout
# and stderr) and prog_rc, which a later fail shows.
run_prog() {
	local t=$1
	shift
	prog_cmd=$(echo "$*" | sed "s#${dir:-/nowhere}/#./#g")
	prog_rc=0
	prog_out=$(cd /tmp && timeout "$t" "$@" 2>&1) || prog_rc=$?
}

# first_diff WANT GOT: "line N: got 'G', want 'W'" for the first line that
# differs (empty when they are equal); an empty text has no lines.
first_diff() {
	[ -z "$1" ] && : >/tmp/lab-want || printf '%s\n' "$1" >/tmp/lab-want
	[ -z "$2" ] && : >/tmp/lab-got || printf '%s\n' "$2" >/tmp/lab-got
	awk 'NR == FNR { want[FNR] = $0; nw = FNR; next }
		{ got[FNR] = $0; ng = FNR }
		END {
			n = nw > ng ? nw : ng
			for (i = 1; i <= n; i++) {
				w = i <= nw ? "'\''" want[i] "'\''" : "nothing"
				g = i <= ng ? "'\''" got[i] "'\''" : "nothing"
				if (w != g) { printf "line %d: got %s, want %s\n", i, g, w; exit }
			}
		}' /tmp/lab-want /tmp/lab-got
	rm -f /tmp/lab-want /tmp/lab-got
}

# expect_lines NAME HINT WANT GOT: PASS when GOT is WANT, else FAIL with the
# hint and the first line that differs.
expect_lines() {
	if [ "$3" = "$4" ]; then
		pass "$1"
	else
		fail "$1" "$2; $(first_diff "$3" "$4")"
	fi
}

# lab_defaults: the settings the checks change, back to the defaults (the
# trace clock only when it is not local: setting it clears the buffers).
lab_defaults() {
	case $(cat $TRACEFS/trace_clock) in
	*"[local]"*) ;;
	*) echo local >$TRACEFS/trace_clock ;;
	esac
	trace_reset
	echo $LAB_BUFFER_PERCENT >$TRACEFS/buffer_percent
}

# lab_restore: at the end of a check, stop what is left of the learner's
# programs in $dir (a check that ended early), run the check's own
# LAB_CLEANUP commands, then lab_defaults.
lab_restore() {
	local p
	for p in /proc/[0-9]*; do
		case $(readlink $p/exe 2>/dev/null) in
		"$dir"/?*) kill -9 ${p#/proc/} 2>/dev/null ;;
		esac
	done
	[ -z "${LAB_CLEANUP:-}" ] || eval "$LAB_CLEANUP"
	lab_defaults
}

# lab_start DIR FILE STEP: when the learner's FILE is not in DIR, fail STEP
# with a hint and end the check; else set dir to a folder in /tmp that
# holds a copy of FILE, which the check runs: under TCG a program started
# from the 9p share took 56 ms, from tmpfs 5 ms (20 runs of each,
# 6 December 2026). From here on, the check puts the defaults back when it
# ends.
lab_start() {
	local from
	from=$(cd "${1:?usage: check.sh DIR}" && pwd) || exit 2
	if [ ! -f "$from/$2" ]; then
		fail "$3" "no '$2' in $from: make lab-check L=${SUITE##*/} builds it from your files"
		exit 0
	fi
	dir=/tmp/lab-files
	rm -rf $dir && mkdir $dir && cp -p "$from/$2" $dir/ || exit 2
	trap lab_restore EXIT
}

# markers TEXT FROM TO [CPU]: write "TEXT N" for N = FROM..TO-1 to
# trace_marker on CPU (default 0), one write each (awk's fflush: 2000 took 0.11 s in the guest, a
# shell loop 0.21 s); writes the buffer refuses are not errors here.
markers() {
	taskset -c "${4:-0}" awk -v t="$1" -v from="$2" -v to="$3" \
		'BEGIN { for (i = from; i < to; i++) { print t, i; fflush() } }' >$TRACEFS/trace_marker 2>/dev/null
}

# alive PID: PID exists, a zombie too (a child that ended stays one until
# the shell waits for it); running, below, is false for a zombie.
alive() { kill -0 "$1" 2>/dev/null; }

# deadline SECONDS: from now on, before_deadline is true for SECONDS (the
# guest's uptime, read without a fork).
deadline() {
	uptime_cs_now
	DEADLINE=$((NOW_CS + $1 * 100))
}
before_deadline() {
	uptime_cs_now
	[ "$NOW_CS" -lt "$DEADLINE" ]
}

# rand LO HI: a number from LO to HI, chosen afresh each call (the checks
# pick their counts, sizes and tags per run, so that a copy of a
# transcript's numbers fails).
rand() {
	echo $(($1 + $(od -An -N4 -tu4 /dev/urandom) % ($2 - $1 + 1)))
}

# wait_settled PID SECONDS [FILE [LOOKS [LINES]]]: wait until PID has
# ended (returns 0) or waits for events: asleep (state S) in ioctl()
# (GET_READER, syscall 16) at LOOKS (20) looks on end, 0.1 s apart (two
# seconds, more on a slow guest), FILE (its output) not growing meanwhile
# (returns 1). Once FILE has LINES lines, what PID was meant to print by
# now, three looks are enough: only a program that stops short waits the
# full LOOKS. Returns 2 when neither came within SECONDS: a limit only for
# a hang, so that a slow guest (a load of 10 on two CPUs) is not taken for
# a program that blocks. A look reads /proc with the shell's own read (a
# fork costs tens of ms under TCG); only FILE's size takes one. Between
# looks, whether PID has ended is seen within 20 ms (gaps).
wait_settled() {
	local pid=$1 secs=$2 file=${3:-} looks=${4:-20} lines=${5:-} i=0 still=0
	local last=${3:+-} out='' need stat nr rest
	while alive "$pid"; do
		stat='' nr='' need=$looks
		read -r stat 2>/dev/null <"/proc/$pid/stat"
		read -r nr rest 2>/dev/null <"/proc/$pid/syscall"
		stat=${stat##*) } # after "PID (COMM) ", whatever COMM holds
		if [ -n "$file" ]; then
			set -- $(wc -lc <"$file")
			out="$1 $2"
			[ -z "$lines" ] || [ "$1" -lt "$lines" ] || need=3
		fi
		case "${stat%% *} $nr" in
		Z*) return 0 ;;
		"S 16")
			if [ "$out" = "$last" ]; then
				still=$((still + 1))
				[ $still -lt "$need" ] || return 1
			else
				still=0
			fi
			;;
		*) still=0 ;;
		esac
		last=$out
		[ $i -lt $((secs * 10)) ] || return 2
		gaps "$pid" 5
		i=$((i + 1))
	done
	return 0
}

# pid_state PID: PID_STATE set to PID's state letter (R, S, T, Z, ...)
# from /proc/PID/stat, without a fork; false once PID is gone.
pid_state() {
	local stat
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	PID_STATE=${stat%% *}
}

# running PID: PID has not ended (a child that ended stays, as a zombie,
# until the shell waits for it).
running() { pid_state "$1" && [ "$PID_STATE" != Z ]; }

# stopped PID: PID is stopped (state T, as by SIGSTOP).
stopped() { pid_state "$1" && [ "$PID_STATE" = T ]; }

# gaps PID N: N naps of 20 ms, fewer once PID has ended.
gaps() {
	local n=$2
	while [ "$n" -gt 0 ] && running "$1"; do
		nap 0.02
		n=$((n - 1))
	done
}

# wait_exit PID SECONDS: true once PID has ended, waiting up to SECONDS;
# looks every 20 ms.
wait_exit() {
	local i=0
	while running "$1" && [ $i -lt $(($2 * 10)) ]; do gaps "$1" 5; i=$((i + 1)); done
	! running "$1"
}

# seq_produce COUNT [SIZE [CPU]]: a run of the project's seq_producer module
# (examples/modules/seq_producer) on CPU (default 0): COUNT seq_producer:seq_event events numbered
# from 0, with SIZE payload bytes (default 0), as fast as it can; returns
# when the run ends.
seq_produce() {
	[ -d $SEQ_PARAMS ] || seq_load || return 1
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	seq_configure "${3:-0}" "$1" "${2:-0}" 0
	echo 1 >$SEQ_PARAMS/run
	seq_wait_end 300
	echo 0 >$TRACEFS/events/seq_producer/seq_event/enable
}

# syscall_events 1|0 CALL...: turn the sys_enter_ and sys_exit_ events of
# each system call CALL on or off; false when the kernel lacks one
# (CONFIG_FTRACE_SYSCALLS).
syscall_events() {
	local on=$1 s
	shift
	for s in "$@"; do
		echo "$on" >$TRACEFS/events/syscalls/sys_enter_$s/enable &&
			echo "$on" >$TRACEFS/events/syscalls/sys_exit_$s/enable || return 1
	done
}

# lab_shell LAB: for the guide's transcripts, go where "make lab L=LAB" puts
# the learner (labs/work/LAB beside labs/LAB), with the solution built there,
# so that the commands shown are the ones to type. The guest's copy of the
# labs ($GUEST_PREFIX/labs, beside this file) stands in for /mnt/share/labs.
lab_shell() {
	local root=/tmp/lab-shell
	rm -rf $root && mkdir -p $root/labs/work || return 1
	cp -r "$GUEST_PREFIX/labs/$1" "$GUEST_PREFIX/labs/check-helpers.sh" $root/labs/ &&
		cp -r "$GUEST_PREFIX/labs/$1" $root/labs/work/ && cd $root/labs/work/"$1"
}
