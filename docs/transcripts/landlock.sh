# SPDX-License-Identifier: MIT
# The table of docs/landlock.rst: landlock_ioctl's output on the guest kernel.
landlock_ioctl /dev/console /dev/ttyS0
