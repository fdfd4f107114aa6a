#!/bin/sh
# SPDX-License-Identifier: MIT
# Not a suite: a stress run for docs/vm.rst's hold on the scheduler's
# tracepoints. For SECONDS (default 60) it writes its PID to an instance's
# set_event_pid and clears it again, a busy loop and a sleeping loop beside
# it, and prints the rounds every 50 and at the end. Booted with
# tmg.no-sched-hold (vm/init then holds nothing), each round rewrites the
# scheduler's tracepoint call sites, which under TCG sometimes panicked the
# guest (docs/vm.rst says how often).
#   make vm-run CMD='sh /opt/trace-mmap-guide/tests/pid-filter-toggle.sh 60'
#   (vm/run.sh --append tmg.no-sched-hold ... for the guest without the hold)
set -eu
seconds=${1:-60}
case $seconds in '' | *[!0-9]*) echo "pid-filter-toggle.sh: SECONDS must be a number, not '$seconds'" >&2; exit 2 ;; esac
inst=/sys/kernel/tracing/instances/pid-filter-toggle
mkdir "$inst"
(while :; do :; done) &
busy=$!
(while :; do sleep 0.001; done) &
sleeper=$!
trap 'kill $busy $sleeper 2>/dev/null; rmdir "$inst"' EXIT
uptime_s() { cut -d. -f1 /proc/uptime; }
end=$(($(uptime_s) + seconds)) rounds=0
while [ "$(uptime_s)" -lt "$end" ]; do
	echo $$ >"$inst/set_event_pid"
	echo >"$inst/set_event_pid"
	rounds=$((rounds + 1))
	[ $((rounds % 50)) -ne 0 ] || echo "rounds $rounds"
done
echo "pid-filter-toggle: $rounds rounds in $seconds s, no panic"
