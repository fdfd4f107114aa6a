# SPDX-License-Identifier: MIT
# Lab 01's solution in the guest: the format files read by formats.sh, then
# the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 01-tracefs
for args in page event-header "event ftrace/print" "id 5"; do
	echo "$ sh formats.sh $args"
	sh formats.sh $args
done
echo "$ sh ../../01-tracefs/check.sh ."
sh ../../01-tracefs/check.sh .
