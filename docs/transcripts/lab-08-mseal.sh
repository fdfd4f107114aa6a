# SPDX-License-Identifier: MIT
# Lab 08's solution in the make lab shell: the table, then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 08-mseal
echo "$ ./seal"
./seal
echo "$ sh ../../08-mseal/check.sh ."
sh ../../08-mseal/check.sh .
