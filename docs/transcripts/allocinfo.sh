# SPDX-License-Identifier: MIT
# docs/allocinfo.rst: the top allocation sites of the guest, then the
# alloc_leak module's line growing and the warning at unload.
run() {
	echo "\$ $*"
	sh -c "$*"
}
run 'head -n 4 /proc/allocinfo'
run 'allocinfo -n 6'
run 'allocinfo -s calls -n 4'
run 'insmod /opt/trace-mmap-guide/modules/alloc_leak.ko blocks=200'
run 'allocinfo -m alloc_leak'
run 'cat /proc/allocinfo >/tmp/before'
run 'echo 50 >/sys/module/alloc_leak/parameters/leak'
run 'allocinfo -m alloc_leak diff /tmp/before /proc/allocinfo'
run 'rmmod alloc_leak'
run "dmesg | grep -e 'at module unload' -e 'still alive'"
rm -f /tmp/before
