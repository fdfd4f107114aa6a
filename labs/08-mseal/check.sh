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

# What ./seal did, not only what it printed: its stdout is a pipe that the
# check fills first, leaving room for every row but the last, so that it
# stops there, its work done; its /proc/PID/smaps is read then. $sealed:
# "KB PERMS" of each sealed mapping, sorted ("" when it could not be read).
out=/tmp/lab08.out fifo=/tmp/lab08.fifo
LAB_CLEANUP="rm -f $out $fifo /tmp/lab08.err"
want_rows="$(printf '%-52s | %-7s | %s\n' operation result errno \
	"mseal both pages" ok "" "-> smaps VmFlags has sl" yes "" \
	"mprotect PROT_READ" refused EPERM "munmap of the second page" refused EPERM \
	"mremap shrink to one page" refused EPERM "mremap move onto another mapping" refused EPERM \
	"mmap MAP_FIXED over it" refused EPERM "-> the data afterwards" kept "" \
	"madvise MADV_DONTNEED (read-only)" refused EPERM "madvise MADV_DONTNEED (writable)" ok "")"
filler=$((16 * 4096 - ${#want_rows} - 1))
rm -f $fifo && mkfifo $fifo
exec 3<>$fifo
head -c $filler /dev/zero >&3
(cd /tmp && exec "$dir/seal" >$fifo 2>/tmp/lab08.err) &
pid=$!
exec 4<$fifo 3>&-
prog_cmd=./seal sealed=''
# Until it sleeps in write() (syscall 1) or has ended; no fixed limit but
# a hang's.
i=0
while alive $pid && [ "$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null)" != 1 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
if alive $pid && [ "$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null)" = 1 ]; then
	sealed=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { perms = $2 } /^Size:/ { kb = $2 }
		/^VmFlags:/ { for (i = 2; i <= NF; i++) if ($i == "sl") print kb, perms }' /proc/$pid/smaps | sort | tr '\n' ' ')
fi
cat <&4 >$out
exec 4<&-
prog_rc=0
wait $pid || prog_rc=$?
prog_out=$(tail -c +$((filler + 1)) $out; cat /tmp/lab08.err)
if [ "$prog_rc" -gt 128 ]; then
	fail step-1-seal "./seal crashed, $(status_text $prog_rc): did an operation that should have been refused go through?"
fi

got=$(rows 2 2)
case $got in
"$(row "mseal both pages" ok)")
	case " $sealed" in
	*" rw-p "*) pass step-1-seal ;;
	*) fail step-1-seal "it printed 'ok', but /proc/PID/smaps after its calls shows no sealed read-write mapping (sealed: ${sealed:-none}): call sys_mseal(p, 2 * page, 0) and print what it returned" ;;
	esac
	;;
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

# What the memory looks like after the calls: p still two read-write pages,
# sealed; ro read-only and rw read-write, one page each, sealed.
want_sealed="4 r--p 4 rw-p 8 rw-p "
if [ "$sealed" != "$want_sealed" ]; then
	fail step-5-memory-after "/proc/PID/smaps after its calls: sealed mappings '${sealed:-none}', want '$want_sealed' (KB and permissions): p (2 pages, read-write, since mprotect was refused), ro (read-only, then sealed) and rw; were the calls made as printed?"
else
	pass step-5-memory-after
fi
