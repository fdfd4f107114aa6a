# SPDX-License-Identifier: MIT
# Lab 10's solution in the make lab shell: a leak between two snapshots,
# found, then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 10-allocinfo
run() {
	echo "\$ $*"
	sh -c "$*"
}
run "insmod $GUEST_PREFIX/modules/alloc_leak.ko blocks=10"
run 'sh leak.sh snapshot /tmp/old'
run 'echo 100 >/sys/module/alloc_leak/parameters/leak'
run 'sh leak.sh snapshot /tmp/new'
run 'sh leak.sh grew /tmp/old /tmp/new'
run 'sh leak.sh held alloc_leak'
run 'sh leak.sh unload alloc_leak'
rm -f /tmp/old /tmp/new
run 'sh ../../10-allocinfo/check.sh .'
