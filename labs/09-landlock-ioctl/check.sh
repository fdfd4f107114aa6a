#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 09 in the guest: the learner's ./sandbox against what Landlock
# does in 6.12 (security/landlock; docs/landlock.rst), and the kernel's ABI
# as the project's landlock_ioctl example reads it. ./sandbox runs as uid
# 65534 (nobody), where landlock_restrict_self() needs no_new_privs, on tty
# nodes of its own, one outside /dev, whose names, like the ABI of --abi,
# change per run. Its Landlock system calls are traced (syscall events, its
# pid's only: the shell that runs su, which execs the shell that execs it)
# and compared with what it printed.
#   sh check.sh DIR
SUITE=${SUITE:-labs/09-landlock-ioctl}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" sandbox step-1-abi
n=$(rand 100 999)
dev=/dev/lab09-tty$n odev=/tmp/lab09-tty$n trace=/tmp/lab09.trace file=/tmp/lab09-file$n
LANDLOCK_CALLS="landlock_create_ruleset landlock_add_rule landlock_restrict_self"
trace_landlock() { syscall_events "$1" $LANDLOCK_CALLS; }
LAB_CLEANUP="trace_landlock 0; rm -f $dev $odev $file $trace $trace.pid $trace.err"
if ! trace_landlock 1 2>/dev/null; then
	fail step-1-abi "this kernel has no syscall events (events/syscalls/sys_enter_landlock_create_ruleset...: CONFIG_FTRACE_SYSCALLS), which the check reads"
	exit 0
fi

# elf_func_offset FILE NAME: the file offset of the function NAME in the
# 64-bit little-endian ELF FILE, as 0xHEX (what a uprobe takes), from its
# symbol table and program headers; returns 1 when it cannot tell.
elf_func_offset() {
	local f=$1 name=$2 h sec sym str idx vaddr
	[ "$(od -An -N 6 -t x1 "$f" | tr -d ' ')" = 7f454c460201 ] || return 1
	# e_phoff, e_shoff (u8 at 32, 40); e_phnum, e_shnum (u2 at 56, 60).
	h="$(od -An -v -j 32 -N 16 -t u8 "$f") $(od -An -j 56 -N 2 -t u2 "$f") $(od -An -j 60 -N 2 -t u2 "$f")"
	set -- $h
	# Section headers, 64 bytes each: the symbol table (type 2), then its
	# string table (sh_link): "offset size [link]" (u4 fields, little-endian).
	sec=$(od -An -v -j "$2" -N $(($4 * 64)) -t u4 -w64 "$f")
	sym=$(echo "$sec" | awk '$2 == 2 { print $7 + $8 * 4294967296, $9 + $10 * 4294967296, $11; exit }')
	[ -n "$sym" ] || return 1
	str=$(echo "$sec" | awk -v i="${sym##* }" 'NR == i + 1 { print $7 + $8 * 4294967296, $9 + $10 * 4294967296 }')
	# Every place NAME starts in the string table (a longer name may end with it).
	idx=$(tail -c +$((${str% *} + 1)) "$f" | head -c "${str#* }" | tr '\0' '\n' |
		awk -v name="$name" 'BEGIN { n = length(name) }
			length($0) >= n && substr($0, length($0) - n + 1) == name { print off + length($0) - n }
			{ off += length($0) + 1 }' | tr '\n' ' ')
	[ -n "$idx" ] || return 1
	# The function symbol (st_info type 2) named there: its address.
	set -- $sym $h
	vaddr=$(od -An -v -j "$1" -N "$2" -t u4 -w24 "$f" |
		awk -v idx=" $idx" '$2 % 16 == 2 && index(idx, " " $1 " ") { print $3 + $4 * 4294967296; exit }')
	[ -n "$vaddr" ] || return 1
	# The loadable segment (p_type 1) that holds it, 56 bytes a header.
	od -An -v -j "$4" -N $(($6 * 56)) -t u4 -w56 "$f" |
		awk -v v="$vaddr" '$1 == 1 && v >= $5 + $6 * 4294967296 && v < $5 + $6 * 4294967296 + $9 {
			printf "0x%x\n", v - ($5 + $6 * 4294967296) + $3; ok = 1; exit } END { exit !ok }'
}

# What it passed to the kernel, too: a uprobe on the C library's syscall()
# in a copy of ./sandbox (landlock_compat.h's wrappers call it) records the
# first u64 behind the pointers it is given: handled_access_fs of
# landlock_create_ruleset(), allowed_access of landlock_add_rule().
bin=/tmp/lab09-sandbox$n
cp "$dir/sandbox" $bin && chmod 755 $bin
LAB_CLEANUP="$LAB_CLEANUP $bin; { echo 0 >$TRACEFS/events/lab09/enable && echo -:lab09/syscall >>$TRACEFS/uprobe_events; } 2>/dev/null"
uprobe=''
# (One left by a check that was killed first.)
{ echo 0 >$TRACEFS/events/lab09/enable && echo -:lab09/syscall >>$TRACEFS/uprobe_events; } 2>/dev/null
if off=$(elf_func_offset $bin syscall) &&
	echo "p:lab09/syscall $bin:$off nr=%di:s64 a1=%si:x64 a3=%cx:x64 m1=+0(%si):x64 m3=+0(%cx):x64" >>$TRACEFS/uprobe_events &&
	echo 1 >$TRACEFS/events/lab09/syscall/enable; then
	uprobe=1
else
	note "    (no uprobe on syscall() in ./sandbox: the check cannot see the rights it passes)"
fi
# The console's device (5, 1), openable by nobody, in /dev and in /tmp.
rm -f $dev $odev && mknod -m 666 $dev c 5 1 && mknod -m 666 $odev c 5 1
grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
# sandbox [-n FDS] [-l DOMAINS] ARGS...: ./sandbox ARGS as uid 65534 (with
# at most FDS file descriptors; under DOMAINS Landlock domains already,
# stacked by landlock_stack, tests/vm/landlock_stack.c, before su); what it
# wrote to stderr in $prog_err (and after its stdout in $prog_out); its
# Landlock calls traced into $trace (with -l, landlock_stack's come first);
# $calls: one line each, "create FLAGS RETURN", "add RETURN", "restrict
# RETURN", with -errno for an error, and from the uprobe "handled MASK"
# before a create with flags 0, "allowed MASK" before an add.
sandbox() {
	local limit='' stack='' what=''
	if [ "$1" = -n ]; then
		limit="ulimit -n $2; " what=", $limit"
		shift 2
	fi
	if [ "$1" = -l ]; then
		stack="landlock_stack $2" what="$what, under $2 Landlock domains already"
		shift 2
	fi
	echo >$TRACEFS/trace
	rm -f $trace.err
	run_prog 60 sh -c 'echo $$ >"$1" && exec $3 su -s /bin/sh nobody -c "$2"' sh \
		$trace.pid "exec 2>$trace.err; ${limit}exec $bin $*" "$stack"
	prog_cmd="./sandbox $* (as nobody$what)"
	prog_err=$(cat $trace.err 2>/dev/null)
	[ -z "$prog_err" ] || prog_out="${prog_out:+$prog_out
}$prog_err"
	cp $TRACEFS/trace $trace
	calls=$(awk -v pid="$(cat $trace.pid 2>/dev/null)" '
	# Only the lines of its pid: "COMM-PID [CPU] ...".
	{
		p = $0
		sub(/ +\[[0-9]+\] .*/, "", p)
		sub(/.*-/, "", p)
		if (p != pid)
			next
	}
	function num(s,  i, n) {
		sub(/^0x/, "", s)
		if (length(s) == 16 && substr(s, 1, 13) == "fffffffffffff")
			return -(65536 - num(substr(s, 13)))
		n = 0
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	/ sys_landlock_[a-z_]+\(/ {
		s = $0
		sub(/.* sys_landlock_/, "", s)
		name = substr(s, 1, index(s, "(") - 1)
		flags = s
		sub(/.*flags: /, "", flags)
		sub(/\).*/, "", flags)
		next
	}
	# The uprobe: "syscall: (0xADDR) nr=N a1=0x.. a3=0x.. m1=0x.. m3=0x.."
	/ syscall: \(0x[0-9a-f]+\) nr=/ {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		if (f["nr"] == 444 && num(f["a3"]) == 0)
			print "handled " num(f["m1"])
		else if (f["nr"] == 445)
			print "allowed " num(f["m3"])
		next
	}
	/ sys_landlock_[a-z_]+ -> 0x/ {
		r = num($NF)
		if (name == "create_ruleset")
			print "create " num(flags) " " r
		else if (name == "add_rule")
			print "add " r
		else
			print "restrict " r
	}' $trace)
}
# errno_name -N: the name of errno N.
errno_name() {
	case $1 in
	-1) echo EPERM ;; -9) echo EBADF ;; -12) echo ENOMEM ;; -13) echo EACCES ;;
	-22) echo EINVAL ;; -24) echo EMFILE ;; -42) echo ENOMSG ;; -77) echo EBADFD ;;
	*) echo "errno ${1#-}" ;;
	esac
}
# row OPERATION RESULT [ERRNO]: a row as the program prints it, blanks squeezed.
row() { echo "$1 | $2 | ${3:-}" | sed 's/ *$//'; }
rows() { echo "$prog_out" | sed -n "$1,$2p" | sed 's/  */ /g; s/ *$//'; }
abi=$(landlock_ioctl $dev 2>/dev/null | sed -n 's/^landlock ABI version used *| \([0-9]*\) .*/\1/p')

# want_handled ABI: the rights ABI knows, as handled_access_fs.
want_handled() {
	local m=$((0x1fff))
	[ "$1" -lt 2 ] || m=$((m | 1 << 13))
	[ "$1" -lt 3 ] || m=$((m | 1 << 14))
	[ "$1" -lt 5 ] || m=$((m | 1 << 15))
	echo $m
}
# rights MASK: the names of the rights in MASK.
rights() {
	local b=0 names=''
	for r in EXECUTE WRITE_FILE READ_FILE READ_DIR REMOVE_DIR REMOVE_FILE MAKE_CHAR MAKE_DIR \
		MAKE_REG MAKE_SOCK MAKE_FIFO MAKE_BLOCK MAKE_SYM REFER TRUNCATE IOCTL_DEV; do
		[ $(($1 >> b & 1)) = 0 ] || names="$names${names:+ }$r"
		b=$((b + 1))
	done
	[ $(($1 >> 16)) = 0 ] || names="$names${names:+ }bits 16 and up"
	echo "$names"
}
# masks_wrong STEP ABI handled|allowed: FAIL STEP (and return 0) when the
# uprobe saw the last run's handled_access_fs (or the rule's
# allowed_access) and it is not what ABI wants.
masks_wrong() {
	local want got what=''
	[ -n "$uprobe" ] || return 1
	want=$(want_handled $2)
	[ "$3" = handled ] || want=$((want & ~(1 << 15)))
	got=$(echo "$calls" | awk -v w="$3" '$1 == w { print $2; exit }')
	[ -n "$got" ] && [ "$got" != "$want" ] || return 1
	[ $((want & ~got)) = 0 ] || what="yours lacks $(rights $((want & ~got)))"
	[ $((got & ~want)) = 0 ] || what="$what${what:+, }yours has $(rights $((got & ~want))) too"
	if [ "$3" = handled ]; then
		fail "$1" "landlock_create_ruleset() was given handled_access_fs $(printf 0x%x $got), want $(printf 0x%x $want) for ABI $2 ($what): ABI 1 knows bits 0 to 12, (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1, ABI 2 adds REFER, 3 TRUNCATE, 5 IOCTL_DEV"
	else
		fail "$1" "the rule for / grants $(printf 0x%x $got), want $(printf 0x%x $want) ($what): everything the ruleset handles but IOCTL_DEV, since a handled right that no rule grants is denied everywhere"
	fi
}

# restricted_anyway STEP [WHEN]: FAIL STEP (and return 0) when the last run
# went on to landlock_restrict_self() after a landlock_add_rule() that failed.
restricted_anyway() {
	local e
	e=$(echo "$calls" | awk '$1 == "add" && $2 < 0 && !e { e = $2 } $1 == "restrict" && e { print e; exit }')
	[ -n "$e" ] || return 1
	fail "$1" "${2:+$2, }landlock_add_rule() returned $(errno_name $e) and ./sandbox still called landlock_restrict_self() (the trace of its system calls): check what landlock_add_rule() returns and stop, since a ruleset without its rule denies everything it handles"
}

sandbox $odev
first_calls=$calls first_rows=$(rows 2 8)
asked=$(echo "$calls" | awk '$1 == "create" && $2 == 1 { print $3; exit }')
want="$(row "landlock ABI" "$abi")
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV handled)"
got=$(rows 2 3)
if [ "$got" = "$want" ] && [ -z "$asked" ]; then
	fail step-1-abi "it printed ABI $abi, but never asked the kernel: the trace of its system calls has no landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION); an ABI written into the program is wrong on every other kernel"
elif [ "$got" = "$want" ]; then
	masks_wrong step-1-abi "$abi" handled || pass step-1-abi
elif [ "$(rows 2 2)" != "$(row "landlock ABI" "$abi")" ]; then
	fail step-1-abi "landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) returns the ABI: $abi here; $(first_diff "$want" "$got")"
else
	fail step-1-abi "ABI $abi knows LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5 and later): handle it; $(first_diff "$want" "$got")"
fi

want="$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" refused EACCES)"
got=$(rows 4 6)
if [ "$got" = "$want" ]; then
	masks_wrong step-2-ioctl-denied "$abi" allowed || pass step-2-ioctl-denied
elif restricted_anyway step-2-ioctl-denied; then
	:
elif [ "$(rows 4 4)" = "$(row sandboxed refused EPERM)" ]; then
	fail step-2-ioctl-denied "landlock_restrict_self() is EPERM for a process without CAP_SYS_ADMIN (the check runs ./sandbox as uid 65534) unless it first called prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); $(first_diff "$want" "$got")"
elif [ "$prog_rc" != 0 ] && echo "$prog_out" | grep -q "$odev.*denied"; then
	# The same on a node in /dev: does the rule cover /dev only?
	saved_out=$prog_out saved_rc=$prog_rc saved_cmd=$prog_cmd
	sandbox $dev
	dev_got=$(rows 4 6)
	prog_out=$saved_out prog_rc=$saved_rc prog_cmd=$saved_cmd
	if [ "$dev_got" = "$want" ]; then
		fail step-2-ioctl-denied "./sandbox $(status_text $prog_rc): opening $odev (a device node outside /dev) again was refused, while a node in /dev opens: the rule must be for / (parent_fd: open(\"/\", O_PATH)), which covers every file, not only /dev"
	else
		fail step-2-ioctl-denied "./sandbox $(status_text $prog_rc): opening DEVICE again was refused, so the rule for / did not grant what the ruleset handles but IOCTL_DEV (read and write alone are not enough: grant handled & ~IOCTL_DEV)"
	fi
elif [ "$prog_rc" != 0 ]; then
	fail step-2-ioctl-denied "./sandbox $(status_text $prog_rc): the rule for / must grant everything the ruleset handles except IOCTL_DEV, or opening DEVICE again is refused"
elif [ "$(rows 6 6)" = "$(row "fd opened after: TCGETS" ok)" ]; then
	fail step-2-ioctl-denied "ioctl() on the device opened after the sandbox went through: handle IOCTL_DEV, and leave it out of the rule for /; $(first_diff "$want" "$got")"
else
	fail step-2-ioctl-denied "Landlock decides at open(): the fd opened before keeps its rights, the one opened after gets EACCES; $(first_diff "$want" "$got")"
fi

want="$(row "fd opened after: FIONBIO" ok)
$(row "fd opened after: write()" ok)"
expect_lines step-3-still-allowed "FIONBIO is always allowed, and write() is not an ioctl" "$want" "$(rows 7 8)"

# ABI 4, the last without IOCTL_DEV, and each of 3, 2 and 1, whose file
# rights all differ (one of them picked at random let a mistake about one
# ABI pass two runs in three), then ABI 5.
best_effort() {
	local old
	for old in 4 3 2 1; do
		sandbox --abi $old $odev
		want="$(row "landlock ABI" $old)
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV dropped)
$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" ok)"
		got=$(rows 2 6)
		if ! echo "$calls" | awk '$1 == "create" && $2 == 1 { found = 1 } END { exit !found }'; then
			fail step-4-best-effort "with --abi $old it never asked the kernel for its ABI (no landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) in the trace of its system calls): --abi N is at most N, and a kernel older than N knows less; ask, then take the smaller"
		elif [ "$got" = "$want" ]; then
			! masks_wrong step-4-best-effort $old handled && ! masks_wrong step-4-best-effort $old allowed || return
			continue
		elif [ "$(rows 2 2)" != "$(row "landlock ABI" $old)" ]; then
			fail step-4-best-effort "with --abi $old, use ABI $old even though the kernel has $abi; $(first_diff "$want" "$got")"
		else
			fail step-4-best-effort "best effort on ABI $old: it does not know IOCTL_DEV (ABI 5 adds it), so leave it out of handled_access_fs and sandbox with the rest; $(first_diff "$want" "$got")"
		fi
		return
	done
	# And on ABI 5, the first that knows IOCTL_DEV: handled there already.
	sandbox --abi 5 $odev
	want="$(row "landlock ABI" 5)
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV handled)
$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" refused EACCES)"
	expect_lines step-4-best-effort "with --abi 5: ABI 5 is the first that knows IOCTL_DEV (ABI >= 5, not > 5), so handle it and the TCGETS after is refused" "$want" "$(rows 2 6)"
}
best_effort

# bad_path STEP PATH WHY: run ./sandbox $odev PATH, where the rule for PATH
# cannot be made (WHY says why); FAIL STEP (and return 0) unless it stopped
# unsandboxed: no landlock_restrict_self(), a non-zero exit and one line on
# stderr that names PATH.
bad_path() {
	local add
	rm -f $file && echo lab09 >$file && chmod 644 $file
	sandbox $odev "$2"
	add=$(echo "$calls" | awk '$1 == "add" { print $2; exit }')
	if restricted_anyway "$1" "with PATH $2, $3"; then
		:
	elif [ "$add" = 0 ]; then
		fail "$1" "with PATH $2, $3, landlock_add_rule() succeeded (the trace of its system calls): the rule must be for PATH (./sandbox [--abi N] DEVICE [PATH], open(PATH, O_PATH)), not always for /"
	elif echo "$calls" | grep -q '^restrict'; then
		fail "$1" "with PATH $2, $3, no rule was added and ./sandbox still called landlock_restrict_self() (the trace of its system calls): check open(PATH) and landlock_add_rule() and stop"
	elif [ -z "$add" ] && [ "$prog_rc" != 0 ] && ! echo "$prog_err" | grep -qF "$2"; then
		fail "$1" "with PATH $2, $3, ./sandbox $(status_text $prog_rc) before any landlock_add_rule() and did not name PATH: does it take PATH (./sandbox [--abi N] DEVICE [PATH], the rule's path, / by default)?"
	elif [ "$prog_rc" = 0 ]; then
		fail "$1" "with PATH $2, $3, the rule could not be made and ./sandbox exited 0: asked for a sandbox it cannot make, it must stop, not go on unsandboxed: one line on stderr that names PATH and a non-zero exit"
	elif [ "$(echo "$prog_err" | wc -l)" != 1 ] || ! echo "$prog_err" | grep -qF "$2"; then
		fail "$1" "with PATH $2, $3, ./sandbox $(status_text $prog_rc) unsandboxed, as it must, but its error must be one line on stderr that names PATH and what failed, e.g. 'sandbox: landlock_add_rule for PATH: Invalid argument'; it wrote $(echo "$prog_err" | grep -c .) lines"
	else
		return 1
	fi
}

# A rule that cannot be added: with file descriptors limited to the
# ruleset's (ulimit -n: the fd the first run's ruleset got, plus one),
# the open() of / fails, and so does a landlock_add_rule() given its -1.
# ./sandbox must not restrict itself without its rule. Then PATH a regular
# file: open(PATH, O_PATH) works, and landlock_add_rule() is EINVAL, since a
# file takes only file rights (security/landlock/fs.c:
# landlock_append_fs_rule()) and the rule grants directory rights too; then
# a PATH that does not exist, where open() fails. Either way ./sandbox must
# stop unsandboxed (bad_path).
fd=$(echo "$first_calls" | awk '$1 == "create" && $2 == 0 && $3 >= 0 { print $3; exit }')
if [ -z "$fd" ]; then
	fail step-5-add-rule-fails "the first run created no ruleset (no landlock_create_ruleset() with flags 0 that succeeded in the trace of its system calls)"
else
	sandbox -n $((fd + 1)) $odev
	if ! echo "$calls" | awk '$1 == "create" && $2 == 0 && $3 >= 0 { ok = 1 } END { exit !ok }'; then
		fail step-5-add-rule-fails "with at most $((fd + 1)) file descriptors (ulimit -n), one more than its ruleset's fd in the first run, ./sandbox made no ruleset (no landlock_create_ruleset() with flags 0 that succeeded in the trace of its system calls): the check cannot see what it does when open(\"/\") fails"
	elif restricted_anyway step-5-add-rule-fails "with at most $((fd + 1)) file descriptors (ulimit -n), where open(\"/\") fails"; then
		:
	elif echo "$calls" | awk '$1 == "add" && $2 >= 0 { ok = 1 } $1 == "restrict" && !ok { bad = 1 } END { exit !bad }'; then
		fail step-5-add-rule-fails "with at most $((fd + 1)) file descriptors (ulimit -n) the rule for / could not be made, and ./sandbox called landlock_restrict_self() with no rule added: check open(\"/\") and landlock_add_rule() and stop"
	elif ! bad_path step-5-add-rule-fails $file "a regular file, which takes only file rights (the rule grants directory rights too: EINVAL)" &&
		! bad_path step-5-add-rule-fails $file-none "which does not exist"; then
		# And PATH / given: as without it.
		sandbox $odev /
		expect_lines step-5-add-rule-fails "./sandbox DEVICE / must do what ./sandbox DEVICE does (the rule is for PATH, / by default)" "$first_rows" "$(rows 2 8)"
	fi
fi

# A sandbox the kernel refuses: under 16 Landlock domains, the most a
# process may have (LANDLOCK_MAX_NUM_LAYERS), landlock_restrict_self()
# fails with E2BIG; the sandboxed row must say what it returned. (The
# first 16 restrict lines of $calls are landlock_stack's.)
sandbox -l 16 $odev
r=$(echo "$calls" | awk '$1 == "restrict" && ++n > 16 { print $2; exit }')
got=$(rows 4 4)
if [ -z "$r" ]; then
	fail step-6-restrict-fails "under 16 Landlock domains already, ./sandbox made no landlock_restrict_self() call (the trace of its system calls)"
elif [ "$r" = -7 ] && [ "$got" = "$(row sandboxed refused E2BIG)" ]; then
	pass step-6-restrict-fails
elif [ "$r" = -7 ]; then
	fail step-6-restrict-fails "the check ran ./sandbox under 16 Landlock domains already, the most a process may have, and landlock_restrict_self() returned E2BIG (the trace of its system calls), but it printed '$got': the sandboxed row must be what landlock_restrict_self() returned, CALL_ROW(\"sandboxed\", it returned 0)"
else
	fail step-6-restrict-fails "under 16 Landlock domains already landlock_restrict_self() returned $r, not E2BIG (-7): did landlock_stack run?"
fi
