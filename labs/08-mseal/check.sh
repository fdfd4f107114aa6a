#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 08 in the guest: the learner's ./seal table against what the
# 6.12 kernel does to a sealed mapping (mm/mseal.c; docs/mseal.rst, whose
# table tests/vm records from examples/demos/mseal_demo.c), with other,
# a mapping that is not sealed, as the control: smaps must not say sl for
# it, and a shrink of it must go through, while p is sealed.
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
out=/tmp/lab08.out fifo=/tmp/lab08.fifo trace=/tmp/lab08.trace
# Its system calls too: the syscall events of the calls the rows are
# about, read after it ended, its pid's only.
SYSCALLS="mseal mprotect munmap mremap mmap madvise"
trace_syscalls() { syscall_events "$1" $SYSCALLS; }
LAB_CLEANUP="trace_syscalls 0; rm -f $out $fifo $trace /tmp/lab08.err"
if ! trace_syscalls 1 2>/dev/null; then
	fail step-1-seal "this kernel has no syscall events (events/syscalls/sys_enter_mseal...: CONFIG_FTRACE_SYSCALLS), which the check reads"
	exit 0
fi
echo >$TRACEFS/trace
want_rows="$(printf '%-52s | %-7s | %s\n' operation result errno \
	"mseal both pages" ok "" "-> smaps VmFlags has sl" yes "" "-> the same for other (not sealed)" no "" \
	"mprotect PROT_READ" refused EPERM "munmap of the second page" refused EPERM \
	"mremap shrink to one page" refused EPERM "mremap move onto another mapping" refused EPERM \
	"mmap MAP_FIXED over it" refused EPERM "mremap shrink other (not sealed)" ok "" "-> the data afterwards" kept "" \
	"madvise MADV_DONTNEED (read-only)" refused EPERM "madvise MADV_DONTNEED (writable)" ok "")"
filler=$((16 * 4096 - ${#want_rows} - 1))
rm -f $fifo && mkfifo $fifo
exec 3<>$fifo
head -c $filler /dev/zero >&3
(cd /tmp && exec "$dir/seal" >$fifo 2>/tmp/lab08.err) &
pid=$!
exec 4<$fifo 3>&-
prog_cmd=./seal sealed='' peeked=0
# Until it sleeps in write() (syscall 1) or has ended; no fixed limit but
# a hang's. (Before its exec, the subshell may write too.)
in_write() {
	[ "$(readlink /proc/$pid/exe 2>/dev/null)" = "$dir/seal" ] &&
		[ "$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null)" = 1 ]
}
deadline 60
while running $pid && ! in_write && before_deadline; do
	nap 0.02
done
if alive $pid && in_write; then
	peeked=1
	sealed=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { perms = $2 } /^Size:/ { kb = $2 }
		/^VmFlags:/ { for (i = 2; i <= NF; i++) if ($i == "sl") print kb, perms }' /proc/$pid/smaps | sort | tr '\n' ' ')
fi
cat <&4 >$out
exec 4<&-
prog_rc=0
wait $pid || prog_rc=$?
prog_out=$(tail -c +$((filler + 1)) $out; cat /tmp/lab08.err)
trace_syscalls 0
cp $TRACEFS/trace $trace
if crashed "$prog_rc"; then
	fail step-1-seal "./seal crashed, $(status_text $prog_rc): did an operation that should have been refused go through?"
fi
# When it ended before it waited to print its last row.
unpeeked="./seal ended before the check could read its /proc/PID/smaps: the pipe has room for every line of the table but the last (it has $(($(echo "$want_rows" | wc -l) + 1)) with the header), and it printed $(echo "$prog_out" | grep -c ' | ') such lines: print each row of the page's table, in its order, once"

# The calls ./seal made after its first mseal() that succeeded (on p, A
# for address), as the eight rows of TODO 3 and 4 that they imply, one
# line each: "OPERATION | RESULT | ERRNO" from what the call returned,
# "!nocall CALL" when no such call was made, "!args TEXT" when it was made
# with arguments other than the row's ("!skipped" for the rest of TODO 3's
# rows after one of those). Each row's call is the next call
# of its system call after the previous row's that touches A's pages
# (madvise: ro's page, then rw's; the shrink of other: the next mremap()
# outside p, at the address the move gave as new_address).
calls=$(awk -v page=4096 -v pid=$pid '
# Only the lines of its pid: "COMM-PID [CPU] ...".
{
	p = $0
	sub(/ +\[[0-9]+\] .*/, "", p)
	sub(/.*-/, "", p)
	if (p != pid)
		next
}
function hex(s,  i, n) {
	n = 0
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
function errname(e) {
	return e == 1 ? "EPERM" : e == 9 ? "EBADF" : e == 12 ? "ENOMEM" : e == 13 ? "EACCES" : \
		e == 14 ? "EFAULT" : e == 17 ? "EEXIST" : e == 22 ? "EINVAL" : "errno " e
}
# The call: "sys_NAME(arg: HEX, arg: HEX...)"; its return: "sys_NAME -> 0xHEX".
/ sys_[a-z0-9_]+\(/ {
	s = $0
	sub(/.* sys_/, "", s)
	name = substr(s, 1, index(s, "(") - 1)
	sub(/^[^(]*\(/, "", s)
	sub(/\)$/, "", s)
	n++
	nm[n] = name
	na = split(s, parts, ", ")
	for (i = 1; i <= na; i++) {
		v = parts[i]
		sub(/^[^:]*: /, "", v)
		arg[n, i] = hex(v)
	}
	err[n] = -1
	next
}
/ sys_[a-z0-9_]+ -> 0x/ {
	s = $NF
	sub(/^0x/, "", s)
	# -4095..-1 is an errno
	e = length(s) == 16 && substr(s, 1, 13) == "fffffffffffff" ? 65536 - hex(substr(s, 13)) : 0
	for (i = n; i > 0; i--)
		if (err[i] == -1) { err[i] = e; break }
	next
}
# next_call NAME LO HI OUT: the index of the next NAME call after pos whose
# address is in [LO, HI) (OUT: outside it), or 0.
function next_call(name, lo, hi, out,  i) {
	for (i = pos + 1; i <= n; i++)
		if (nm[i] == name && (arg[i, 1] >= lo && arg[i, 1] < hi) != out)
			return i
	return 0
}
function emit(op, name, lo, hi, check,  i, bad) {
	if (stop) {
		print "!skipped"
		return
	}
	if (check == "ro" && lo < 0)
		bad = op ": no other mapping was made read-only (mprotect PROT_READ) and then sealed: make ro read-only, then seal it"
	if (check == "rw" && lo < 0)
		bad = op ": no mapping but p and ro was sealed: seal rw too"
	if (bad != "") {
		print "!args " bad
		return
	}
	i = next_call(name, lo, hi, check == "other")
	if (!i) {
		print "!nocall " name "()"
		stop = 1
		return
	}
	pos = i
	bad = ""
	if (check == "prot" && arg[i, 3] != 1)
		bad = sprintf("mprotect PROT_READ: mprotect() was called with prot 0x%x, not PROT_READ (1)%s: the row must try the change it names", arg[i, 3], arg[i, 3] == 3 ? ", which p already has (PROT_READ | PROT_WRITE)" : "")
	if (check == "second" && (arg[i, 1] != A + page || arg[i, 2] < 1 || arg[i, 2] > page))
		bad = sprintf("munmap of the second page: munmap() was called on %d bytes at p + %d, not on the second page (p + page, one page long)", arg[i, 2], arg[i, 1] - A)
	if (check == "shrink" && arg[i, 3] >= arg[i, 2])
		bad = sprintf("mremap shrink to one page: mremap() was called with old_len %d and new_len %d: shrinking asks for a new_len smaller than old_len", arg[i, 2], arg[i, 3])
	if (check == "move" && int(arg[i, 4] / 2) % 2 == 0)
		bad = sprintf("mremap move onto another mapping: mremap() was called with flags 0x%x, without MREMAP_FIXED (2): then the kernel ignores new_address and moves nothing onto other; pass MREMAP_MAYMOVE | MREMAP_FIXED and other", arg[i, 4])
	if (check == "move" && !bad && (arg[i, 5] == 0 || (arg[i, 5] >= A && arg[i, 5] < A + L)))
		bad = "mremap move onto another mapping: mremap() was given a new_address that is not another mapping: pass other"
	if (check == "move")
		other = arg[i, 5]
	if (check == "other" && (arg[i, 1] != other || arg[i, 3] >= arg[i, 2]))
		bad = sprintf("mremap shrink other (not sealed): mremap() was called at p %s %d with old_len %d and new_len %d: shrink other (the new_address of the move) to one page, mremap(other, 2 * page, page, 0)", arg[i, 1] < A ? "-" : "+", arg[i, 1] < A ? A - arg[i, 1] : arg[i, 1] - A, arg[i, 2], arg[i, 3])
	if (check == "fixed" && int(arg[i, 4] / 16) % 2 == 0)
		bad = sprintf("mmap MAP_FIXED over it: mmap() was called with flags 0x%x, without MAP_FIXED (0x10)", arg[i, 4])
	if ((check == "ro" || check == "rw") && arg[i, 3] != 4)
		bad = sprintf("%s: madvise() was called with advice %d, not MADV_DONTNEED (4)", op, arg[i, 3])
	if (bad != "") {
		print "!args " bad
		stop = 1
		return
	}
	print op " | " (err[i] ? "refused | " errname(err[i]) : "ok |")
}
END {
	for (i = 1; i <= n; i++)
		if (nm[i] == "mseal" && err[i] == 0) { A = arg[i, 1]; L = arg[i, 2]; pos = i; break }
	if (!pos) {
		print "!noseal"
		exit
	}
	# ro: the first mapping sealed after p that was made read-only
	# before; rw: the first other one sealed after p.
	ro = rw = -1
	for (i = pos + 1; i <= n; i++) {
		if (nm[i] != "mseal" || err[i])
			continue
		for (j = 1; j < i; j++)
			if (nm[j] == "mprotect" && !err[j] && arg[j, 1] == arg[i, 1] && arg[j, 3] == 1)
				break
		if (j < i && ro < 0)
			ro = arg[i, 1]
		else if (j == i && rw < 0)
			rw = arg[i, 1]
	}
	emit("mprotect PROT_READ", "mprotect", A, A + L, "prot")
	emit("munmap of the second page", "munmap", A, A + L, "second")
	emit("mremap shrink to one page", "mremap", A, A + L, "shrink")
	emit("mremap move onto another mapping", "mremap", A, A + L, "move")
	emit("mmap MAP_FIXED over it", "mmap", A, A + L, "fixed")
	emit("mremap shrink other (not sealed)", "mremap", A, A + L, "other")
	stop = 0
	emit("madvise MADV_DONTNEED (read-only)", "madvise", ro, ro + page, "ro")
	stop = 0
	emit("madvise MADV_DONTNEED (writable)", "madvise", rw, rw + page, "rw")
}' $trace)

# calls_step NAME FIRST ROW: the rows ROW.. of the output against the lines
# FIRST.. of $calls, as many as $calls has from FIRST on in the step
# (step 3: 1-6, step 4: 7-8); PASS when each row is what its call returned.
calls_step() {
	local step=$1 i=$2 last=$3 r=$4 l printed
	while [ "$i" -le "$last" ]; do
		l=$(echo "$calls" | sed -n "${i}p")
		printed=$(rows "$r" "$r")
		case $l in
		'!noseal')
			fail "$step" "the trace of ./seal's system calls has no mseal() that succeeded: were the rows printed without calling sys_mseal?"
			return
			;;
		'!nocall '* | '')
			fail "$step" "it printed '$printed' but made no ${l#!nocall } call on that memory after sealing it: a row must be what its call returned, CALL_ROW(op, the call succeeded)"
			return
			;;
		'!args '*)
			fail "$step" "${l#!args }"
			return
			;;
		esac
		if [ "$l" != "$printed" ]; then
			fail "$step" "it printed '$printed', but the call returned '$l' (from the trace of its system calls): CALL_ROW(op, the call succeeded) evaluates the call, then reads errno"
			return
		fi
		i=$((i + 1)) r=$((r + 1))
	done
	pass "$step"
}

got=$(rows 2 2)
case $got in
"$(row "mseal both pages" ok)")
	case " $sealed" in
	*" rw-p "*) pass step-1-seal ;;
	*)
		if [ $peeked = 0 ]; then
			fail step-1-seal "$unpeeked"
		else
			fail step-1-seal "it printed 'ok', but /proc/PID/smaps after its calls shows no sealed read-write mapping (sealed: ${sealed:-none}): call sys_mseal(p, 2 * page, 0) and print what it returned"
		fi
		;;
	esac
	;;
*EINVAL*) fail step-1-seal "mseal refused with EINVAL: the address must be page-aligned (the one mmap gave), the length a multiple of the page size, and flags 0; $(first_diff "$(row "mseal both pages" ok)" "$got")" ;;
*) fail step-1-seal "seal both pages of p with sys_mseal(p, 2 * page, 0); $(first_diff "$(row "mseal both pages" ok)" "$got")" ;;
esac

if [ "$(rows 3 4)" = "$(row "-> smaps VmFlags has sl" yes)
$(row "-> the same for other (not sealed)" yes)" ]; then
	fail step-2-smaps "smaps_sealed(other) said yes, but other is not sealed (only p is, then): the sl it found is in another entry's VmFlags line; look only at the VmFlags line of the entry that starts at the address asked about"
else
	expect_lines step-2-smaps "the VmFlags line of p's entry in /proc/self/smaps (the one starting at p's address) has the word sl once it is sealed, other's has not" \
		"$(row "-> smaps VmFlags has sl" yes)
$(row "-> the same for other (not sealed)" no)" "$(rows 3 4)"
fi

# rows_step NAME FROM TO WANT HINT "FIRST LAST ROW" [CLUE_REGEX CLUE_HINT]...:
# rows FROM..TO must be WANT (when a row matches a CLUE_REGEX the failure
# says its CLUE_HINT, else HINT), and then what calls_step FIRST LAST ROW says.
rows_step() {
	local step=$1 got want=$4 hint=$5 calls_args=$6
	got=$(rows "$2" "$3")
	if [ "$got" = "$want" ]; then
		calls_step "$step" $calls_args
		return
	fi
	shift 6
	while [ $# -ge 2 ]; do
		if echo "$got" | grep -q "$1"; then
			hint=$2
			break
		fi
		shift 2
	done
	fail "$step" "$hint; $(first_diff "$want" "$got")"
}

# The shrink of other: what its call returned, from the trace.
other_call=$(echo "$calls" | sed -n 6p)
rows_step step-3-blocked 5 11 "$(row "mprotect PROT_READ" refused EPERM)
$(row "munmap of the second page" refused EPERM)
$(row "mremap shrink to one page" refused EPERM)
$(row "mremap move onto another mapping" refused EPERM)
$(row "mmap MAP_FIXED over it" refused EPERM)
$(row "mremap shrink other (not sealed)" ok)
$(row "-> the data afterwards" kept)" \
	"every operation that changes a sealed mapping fails with EPERM, in the order of TODO 3, and the same shrink of other, which is not sealed, goes through" \
	"1 6 5" \
	'^mremap shrink other (not sealed) | refused' \
	"$([ "$other_call" = "$(row "mremap shrink other (not sealed)" ok)" ] &&
		echo "mremap shrink other (not sealed): the call went through (the trace of its system calls says so), but the row says refused: mremap() returns the address of the mapping when it succeeds and MAP_FAILED when it fails, not 0: test != MAP_FAILED" ||
		echo "mremap shrink other (not sealed): other is not sealed, so shrinking it goes through: mremap(other, 2 * page, page, 0), the row testing != MAP_FAILED")" \
	'^munmap of the second page | ok' \
	"munmap of the second page went through: was the seal only one page long? Seal both" \
	'^mmap MAP_FIXED over it | ok' \
	"mmap over p went through: map with MAP_FIXED at p itself: without MAP_FIXED the address is only a hint, and the kernel maps the page elsewhere; at another address the mmap replaces what is there, not p"

rows_step step-4-madvise 12 14 "$(row "madvise MADV_DONTNEED (read-only)" refused EPERM)
$(row "madvise MADV_DONTNEED (writable)" ok)
$(row "-> the read-only data afterwards" kept)" \
	"discarding sealed read-only memory is refused (EPERM), sealed writable memory is not" \
	"7 8 12" \
	'read-only) | ok' \
	"MADV_DONTNEED went through on ro: sealing refuses discarding only on memory that is read-only when sealed (mprotect PROT_READ first, then mseal)"

# What the memory looks like after the calls: p still two read-write pages,
# sealed; ro read-only and rw read-write, one page each, sealed.
want_sealed="4 r--p 4 rw-p 8 rw-p "
if [ $peeked = 0 ]; then
	fail step-5-memory-after "$unpeeked"
elif [ "$sealed" != "$want_sealed" ]; then
	fail step-5-memory-after "/proc/PID/smaps after its calls: sealed mappings '${sealed:-none}', want '$want_sealed' (KB and permissions): p (2 pages, read-write, since mprotect was refused), ro (read-only, then sealed) and rw; were the calls made as printed?"
else
	pass step-5-memory-after
fi
