# SPDX-License-Identifier: MIT
# Lab 06's solution in the guest: stream five markers as they are written,
# then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
trace_reset
echo 0 >$TRACEFS/buffer_percent
lab_shell 06-consumer
echo "$ echo 0 > /sys/kernel/tracing/buffer_percent"
echo "$ ./stream 0 5 &  # then five writes on CPU 0, a second apart"
./stream 0 5 &
for i in 1 2 3 4 5; do
	sleep 1
	taskset -c 0 sh -c "echo event $i of 5 >$TRACEFS/trace_marker"
done
wait
echo "$ sh ../../06-consumer/check.sh ."
sh ../../06-consumer/check.sh .
