# SPDX-License-Identifier: MIT
# Lab 05's solution in the guest: the lab's check, which runs ./missed after
# a seq_producer run of 2000 events in overwrite mode, then in
# producer/consumer mode.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 05-missed-events
echo "$ sh ../../05-missed-events/check.sh ."
sh ../../05-missed-events/check.sh .
