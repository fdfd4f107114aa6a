#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 08 in the guest: the learner's ./seal table against what the
# 6.12 kernel does to a sealed mapping (mm/mseal.c; docs/mseal.rst, whose
# table tests/vm records from examples/demos/mseal_demo.c).
#   sh check.sh DIR
SUITE=${SUITE:-labs/08-mseal}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" seal step-1-seal
# row OPERATION RESULT [ERRNO]: a row as the program prints it, blanks squeezed.
row() { echo "$1 | $2 | ${3:-}" | sed 's/ *$//'; }
# rows FROM TO: lines FROM..TO of the output, blanks squeezed.
rows() { echo "$prog_out" | sed -n "$1,$2p" | sed 's/  */ /g; s/ *$//'; }

run_prog 20 "$dir/seal"
if [ "$prog_rc" -gt 128 ]; then
	fail step-1-seal "./seal crashed, $(status_text $prog_rc): did an operation that should have been refused go through?"
fi

got=$(rows 2 2)
case $got in
"$(row "mseal both pages" ok)") pass step-1-seal ;;
*EINVAL*) fail step-1-seal "mseal refused with EINVAL: the address must be page-aligned (the one mmap gave), the length a multiple of the page size, and flags 0; $(first_diff "$(row "mseal both pages" ok)" "$got")" ;;
*) fail step-1-seal "seal both pages of p with sys_mseal(p, 2 * page, 0); $(first_diff "$(row "mseal both pages" ok)" "$got")" ;;
esac

expect_lines step-2-smaps "the VmFlags line of p's entry in /proc/self/smaps (the one starting at p's address) has the word sl once it is sealed" \
	"$(row "-> smaps VmFlags has sl" yes)" "$(rows 3 3)"

# rows_step NAME FROM TO WANT HINT CLUE_REGEX CLUE_HINT: rows FROM..TO must
# be WANT; when a row matches CLUE_REGEX the failure says CLUE_HINT, else HINT.
rows_step() {
	local got
	got=$(rows "$2" "$3")
	if [ "$got" = "$4" ]; then
		pass "$1"
	elif echo "$got" | grep -q "$6"; then
		fail "$1" "$7; $(first_diff "$4" "$got")"
	else
		fail "$1" "$5; $(first_diff "$4" "$got")"
	fi
}

rows_step step-3-blocked 4 9 "$(row "mprotect PROT_READ" refused EPERM)
$(row "munmap of the second page" refused EPERM)
$(row "mremap shrink to one page" refused EPERM)
$(row "mremap move onto another mapping" refused EPERM)
$(row "mmap MAP_FIXED over it" refused EPERM)
$(row "-> the data afterwards" kept)" \
	"every operation that changes a sealed mapping fails with EPERM, in the order of TODO 3" \
	'^munmap of the second page | ok' \
	"munmap of the second page went through: was the seal only one page long? Seal both"

rows_step step-4-madvise 10 12 "$(row "madvise MADV_DONTNEED (read-only)" refused EPERM)
$(row "madvise MADV_DONTNEED (writable)" ok)
$(row "-> the read-only data afterwards" kept)" \
	"discarding sealed read-only memory is refused (EPERM), sealed writable memory is not" \
	'read-only) | ok' \
	"MADV_DONTNEED went through on ro: sealing refuses discarding only on memory that is read-only when sealed (mprotect PROT_READ first, then mseal)"
