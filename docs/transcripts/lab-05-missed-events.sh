# SPDX-License-Identifier: MIT
# Lab 05's solution in the guest: the lab's check, which runs ./missed after
# seq_producer runs of 2000 events in overwrite mode (the second with
# no room for the count), then in producer/consumer mode on two CPUs.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 05-missed-events
echo "$ sh ../../05-missed-events/check.sh ."
sh ../../05-missed-events/check.sh .
