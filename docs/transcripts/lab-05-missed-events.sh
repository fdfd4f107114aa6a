# SPDX-License-Identifier: MIT
# Lab 05's solution in the guest: the lab's check, which runs ./missed after
# a seq_producer run of 2000 events in overwrite mode, then in
# producer/consumer mode.
. "$GUEST_PREFIX/tests/guest-lib.sh"
cd "$GUEST_PREFIX/labs/05-missed-events"
echo "$ sh check.sh ."
sh check.sh .
