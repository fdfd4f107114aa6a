# SPDX-License-Identifier: MIT
# The rule for /dev instead of / (blind: "the devices are in /dev"): every
# file elsewhere is denied, a device node outside /dev too.
# want: step-2-ioctl-denied: opening /tmp/lab09-tty[0-9]+ \(a device node outside /dev\) again was refused, while a node in /dev opens
/TODO 3:/,/END TODO 3/s/rule.parent_fd = open(path, O_PATH | O_CLOEXEC);/rule.parent_fd = open("\/dev", O_PATH | O_CLOEXEC);/
