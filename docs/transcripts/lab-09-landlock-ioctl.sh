# SPDX-License-Identifier: MIT
# Lab 09's solution in the make lab shell: the kernel's ABI, then as if it
# were ABI 4, then with a rule for a regular file (refused: it stops), then
# the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 09-landlock-ioctl
for args in /dev/console "--abi 4 /dev/console" "/dev/console /bin/sh"; do
	echo "$ ./sandbox $args"
	./sandbox $args
done
echo "$ sh ../../09-landlock-ioctl/check.sh ."
sh ../../09-landlock-ioctl/check.sh .
