# SPDX-License-Identifier: MIT
# Lab 01's solution in the guest: the format files read by formats.sh (an
# event with a fixed-size array field, header_page at 8 KiB sub-buffers, an
# ID no event has), then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 01-tracefs
for args in page event-header "event ftrace/print" "event sched/sched_switch" "id 5"; do
	echo "$ sh formats.sh $args"
	sh formats.sh $args
done
echo "$ echo 8 > /sys/kernel/tracing/buffer_subbuf_size_kb; sh formats.sh page | grep data"
echo 8 >$TRACEFS/buffer_subbuf_size_kb
sh formats.sh page | grep data
echo 4 >$TRACEFS/buffer_subbuf_size_kb
echo '$ sh formats.sh id 99999; echo "exit $?"'
sh formats.sh id 99999
echo "exit $?"
echo "$ sh ../../01-tracefs/check.sh ."
sh ../../01-tracefs/check.sh .
