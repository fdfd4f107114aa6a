# SPDX-License-Identifier: MIT
# What the labs' check.sh scripts share (busybox sh). A check sets SUITE,
# sources this file beside its folder, then calls lab_start.
. "$GUEST_PREFIX/tests/guest-lib.sh"

# lab_start DIR FILE STEP: set dir to DIR made absolute; when the learner's
# FILE is not there, fail STEP with a hint and end the check.
lab_start() {
	dir=$(cd "${1:?usage: check.sh DIR}" && pwd) || exit 2
	if [ ! -f "$dir/$2" ]; then
		fail "$3" "no '$2' in $dir: make lab-check L=${SUITE##*/} builds it from your files"
		exit 0
	fi
}

# markers TEXT FROM TO: write "TEXT N" for N = FROM..TO-1 to trace_marker on
# CPU 0; writes the buffer refuses are not errors here.
markers() {
	taskset -c 0 sh -c "i=$2; while [ \$i -lt $3 ]; do echo '$1' \$i 2>/dev/null; i=\$((i + 1)); done" \
		>$TRACEFS/trace_marker 2>/dev/null
}

alive() { kill -0 "$1" 2>/dev/null; }

# wait_exit PID SECONDS: true once PID has exited, waiting up to SECONDS.
wait_exit() {
	local i=0
	while alive "$1" && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	! alive "$1"
}

# seq_produce COUNT [SIZE]: a run of the project's seq_producer module
# (kernel patch 0002) on CPU 0: COUNT seq_producer:seq_event events numbered
# from 0, with SIZE payload bytes (default 0), as fast as it can; returns
# when the run ends.
seq_produce() {
	[ -d $SEQ_PARAMS ] || modprobe seq_producer || return 1
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	seq_configure 0 "$1" "${2:-0}" 0
	echo 1 >$SEQ_PARAMS/run
	seq_wait_end 300
	echo 0 >$TRACEFS/events/seq_producer/seq_event/enable
}
