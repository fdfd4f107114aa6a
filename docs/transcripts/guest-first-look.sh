# SPDX-License-Identifier: MIT
# The guest's kernel, its CPUs, and the meta-page of CPU 0.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
echo "$ uname -r"
uname -r
echo "$ cat /sys/devices/system/cpu/online"
cat /sys/devices/system/cpu/online
echo "$ meta_page 0"
meta_page 0
