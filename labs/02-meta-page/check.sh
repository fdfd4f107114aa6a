#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 02 in the guest: the learner's ./meta against the project's
# meta_page example, and when the meta-page changes.
#   sh check.sh DIR
# ./meta 0 runs on a buffer the check fills first, with sizes and counts
# chosen per run: sub-buffers larger than a page (so meta_page_size is
# more than one page), events written until some are overwritten, some
# sub-buffers consumed with GET_READER from another mapping (so that
# entries, overrun, read and reader.read differ). What it mapped and
# unmapped is read from its mmap and munmap system calls (syscall events,
# in an instance of their own: not in the buffer ./meta reads). Step 3
# runs ./meta 0 watch N twice: as it is, then with GET_READER made to fail
# (check_aid fail-get-reader), when it must stop and say so. Step 2 also
# runs ./meta 0 on a copy of the meta-page whose reader.lost_events is
# above 2^32 - 1 (check_aid meta-lost), chosen per run.
SUITE=${SUITE:-labs/02-meta-page}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" meta step-1-map
sizes() { echo "$1" | grep -E '^(meta_page_size|meta_struct_len|subbuf_size|nr_subbufs) '; }
# field NAME TEXT: the value of the line "NAME value" in TEXT.
field() { echo "$2" | awk -v n="$1" '$1 == n { print $2; exit }'; }

inst=$TRACEFS/instances/lab02-calls trace=/tmp/lab02.trace
calls() {
	local s
	for s in mmap munmap; do
		echo "$1" >$inst/events/syscalls/sys_enter_$s/enable &&
			echo "$1" >$inst/events/syscalls/sys_exit_$s/enable || return 1
	done
}
LAB_CLEANUP="calls 0 2>/dev/null; rmdir $inst 2>/dev/null; echo '!snapshot' >$TRACEFS/events/ftrace/print/trigger 2>/dev/null; echo 0 >$TRACEFS/snapshot 2>/dev/null; rm -f $trace"
mkdir -p $inst
if ! calls 1 2>/dev/null; then
	fail step-1-map "this kernel has no syscall events (events/syscalls/sys_enter_mmap...: CONFIG_FTRACE_SYSCALLS), which the check reads"
	exit 0
fi
calls 0

# 1. mmap refused: a snapshot trigger keeps a snapshot armed, and then the
# kernel refuses to map the buffer (EBUSY). ./meta must say so, not crash.
trace_reset
echo snapshot >$TRACEFS/events/ftrace/print/trigger
run_prog 20 "$dir/meta" 0
refused_out=$prog_out refused_rc=$prog_rc
echo '!snapshot' >$TRACEFS/events/ftrace/print/trigger
echo 0 >$TRACEFS/snapshot
refused=''
if crashed "$prog_rc"; then
	refused="with a snapshot armed the kernel refuses the mmap (EBUSY), and ./meta crashed, $(status_text $prog_rc): check mmap's result (MAP_FAILED) before reading meta->meta_page_size"
elif [ "$prog_rc" = 0 ]; then
	refused="with a snapshot armed the kernel refuses the mmap (EBUSY), yet ./meta exited 0: when mmap returns MAP_FAILED, say why and exit non-zero"
fi

# 2. The buffer: K KiB sub-buffers, N of them in the ring (about), written
# over until some are overwritten, then C sub-buffers consumed.
trace_reset
k=$((8 << $(rand 0 1)))
echo 0 >$TRACEFS/tracing_on
echo $k >$TRACEFS/buffer_subbuf_size_kb
echo $((k * $(rand 3 5))) >$TRACEFS/buffer_size_kb
echo >$TRACEFS/trace
echo 1 >$TRACEFS/tracing_on
cap=$(($(cat $TRACEFS/per_cpu/cpu0/buffer_size_kb | sed 's/ .*//') * 1024 / 32))
markers "lab02 $(rand 100 999)" 0 $((cap + $(rand $((cap / 2)) $cap)))
reader_swap --cpu 0 --count $(rand 1 3) >/dev/null
want=$(meta_page 0)
# Until overrun and read differ (both go by whole sub-buffers).
i=0
while [ "$(field overrun "$want")" = "$(field read "$want")" ] && [ $i -lt 3 ]; do
	reader_swap --cpu 0 --count 1 >/dev/null
	want=$(meta_page 0)
	i=$((i + 1))
done
stats=$(cat $TRACEFS/per_cpu/cpu0/stats)
echo >$inst/trace
calls 1
run_prog 20 "$dir/meta" 0
calls 0
cp $inst/trace $trace
page=$(page_bytes)
msize=$(field meta_page_size "$want")
ring=$(($(field nr_subbufs "$want") * $(field subbuf_size "$want")))
# ./meta's mmaps of the buffer (MAP_SHARED, from a file) and munmaps, one
# verdict: "last LEN" (the mapping made last, which it read), then
# "badunmap LEN MAPLEN ERRNO" for a munmap that failed or cut a mapping,
# "leak LEN N" for the Nth mapping never unmapped.
maps=$(awk '
$1 !~ /^meta-[0-9]+$/ { next }
function hex(s,  i, n) {
	n = 0
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
function args(s,  na, i, parts) {
	sub(/.*\(/, "", s)
	sub(/\)$/, "", s)
	na = split(s, parts, ", ")
	for (i = 1; i <= na; i++) {
		a[i] = parts[i]
		sub(/^[^:]*: /, "", a[i])
	}
}
function ret(s) {
	s = $NF
	sub(/^0x/, "", s)
	return length(s) == 16 && substr(s, 1, 13) == "fffffffffffff" ? -(65536 - hex(substr(s, 13))) : hex(s)
}
/ sys_mmap\(/ { args($0); want = hex(a[4]) % 2 == 1 && length(a[5]) < 8; len = hex(a[2]); next }
/ sys_mmap -> / { r = ret(); if (want && r >= 0) { n++; at[n] = r; ln[n] = len; alive[n] = 1; last = len }; want = 0; next }
/ sys_munmap\(/ { args($0); ua = hex(a[1]); ul = hex(a[2]); next }
/ sys_munmap -> / {
	r = ret()
	for (i = 1; i <= n; i++)
		if (alive[i] && at[i] == ua) {
			if (r < 0 || int((ul + 4095) / 4096) * 4096 != ln[i])
				print "badunmap", ul, ln[i], -r
			if (r == 0)
				alive[i] = 0
		}
	next
}
END {
	print "last", last + 0
	for (i = 1; i <= n; i++)
		if (alive[i])
			print "leak", ln[i], i
}' $trace)
last=$(echo "$maps" | awk '$1 == "last" { print $2 }')
bad=$(echo "$maps" | awk '$1 == "badunmap" { print $2, $3, $4; exit }')
leak=$(echo "$maps" | awk '$1 == "leak" { print $2, $3; exit }')
if [ "$prog_rc" != 0 ]; then
	case $prog_out in
	*"Operation not permitted"*) why="mmap said EPERM: the kernel maps the ring buffer MAP_SHARED only" ;;
	*"Permission denied"*) why="mmap said EACCES: the fd is read-only, so map it PROT_READ only" ;;
	*) why="'./meta 0' $(status_text $prog_rc)" ;;
	esac
	fail step-1-map "$why"
elif [ -z "$(sizes "$prog_out")" ] || [ "$(sizes "$prog_out")" != "$(sizes "$want")" ]; then
	fail step-1-map "mapped, but the sizes it printed differ; $(first_diff "$(sizes "$want")" "$(sizes "$prog_out")")"
elif [ "$last" = 0 ]; then
	fail step-1-map "no mmap of trace_pipe_raw (MAP_SHARED) by ./meta was seen in its system calls"
elif [ "$last" = "$page" ] && [ "$msize" != "$page" ]; then
	fail step-1-map "it mapped one page only ($page bytes): here meta_page_size is $msize (sub-buffers of $k KiB), so map meta_page_size bytes after reading it"
elif [ "$last" != "$msize" ]; then
	if [ "$last" = "$ring" ]; then
		what="nr_subbufs * subbuf_size, the size of the ring, not of the meta-page"
	else
		what="not meta_page_size"
	fi
	fail step-1-map "the mapping it read the fields from is $last bytes, $what ($msize): map meta_page_size bytes"
elif [ -n "$bad" ]; then
	set -- $bad
	if [ "$1" = "$(field meta_struct_len "$want")" ]; then
		what="meta_struct_len, the size of the struct, not of the mapping"
	else
		what="not the $2 bytes it mapped (was len updated when it mapped again?)"
	fi
	fail step-1-map "munmap of $1 bytes on its mapping of $2 bytes $(case $3 in 0) echo "cut it" ;; 22) echo "failed with EINVAL" ;; *) echo "failed (errno $3)" ;; esac): $1 is $what; unmap the length you mapped"
elif [ -n "$leak" ]; then
	set -- $leak
	if [ "$2" = 1 ] && [ "$1" = "$page" ]; then
		what="the first one-page mapping was never unmapped: munmap it before mapping meta_page_size bytes"
	else
		what="its mapping number $2 ($1 bytes) was never unmapped"
	fi
	fail step-1-map "$what"
elif [ -n "$refused" ]; then
	prog_out=$refused_out prog_rc=$refused_rc
	fail step-1-map "$refused"
else
	pass step-1-map
fi

# Every field, on the buffer above.
got=$(field entries "$prog_out")
e=$(field entries "$want") o=$(field overrun "$want") r=$(field read "$want") rr=$(field reader.read "$want")
hint="on a buffer where $o events were overwritten and $r consumed, print every field from meta_page_size to read (the reserved ones after it are not needed) as 'name value', in struct order"
# per_cpu/cpu0/stats: "entries: N" counts the events waiting only.
waiting=$(echo "$stats" | awk '$1 == "entries:" { print $2 }')
if [ "$got" != "$e" ] && [ "$got" = $((e - o - r)) ] && [ "$got" = "$waiting" ]; then
	hint="entries is every event written ($e), overwritten (overrun) and read ones included: you printed entries - overrun - read, what per_cpu/cpu0/stats calls entries ($waiting)"
elif [ "$(field reader.read "$prog_out")" != "$rr" ] && [ "$(field reader.read "$prog_out")" = "$r" ]; then
	hint="reader.read is meta->reader.read, the bytes read on the reader sub-buffer ($rr), not meta->read, the events read ($r)"
elif [ "$(field reader.id "$prog_out")" != "$(field reader.id "$want")" ] && [ "$(field reader.id "$prog_out")" = "$rr" ]; then
	hint="reader.id printed the value of reader.read ($rr): print meta->reader.id"
fi
if [ "$prog_out" != "$want" ]; then
	fail step-2-fields "$hint; $(first_diff "$want" "$prog_out")"
else
	# reader.lost_events is a __u64 (the kernel's count, an unsigned
	# long): ./meta 0 once more, its mmap()s of trace_pipe_raw made of a
	# copy of CPU 0's meta-page (check_aid meta-lost) whose count is above
	# 2^32 - 1, which a guest cannot overwrite in time.
	lost=$(((1 << 32) * $(rand 1 65535) + $(rand 0 4294967295)))
	run_prog 20 check_aid meta-lost 0 $lost "$dir/meta" 0
	got=$(field reader.lost_events "$prog_out")
	made="on a copy of the meta-page whose reader.lost_events is $lost (by the check: more than 2^32 - 1, as a 64-bit kernel reports after that many overwritten events)"
	if [ "$prog_rc" = 3 ] && echo "$prog_out" | grep -q 'check_aid: meta-lost: x86_64 only'; then
		note "    reader.lost_events above 2^32 - 1 not tried: check_aid meta-lost is x86_64 only"
		pass step-2-fields
	elif [ "$got" = "$lost" ]; then
		pass step-2-fields
	elif [ "$got" = $((lost % 4294967296)) ]; then
		fail step-2-fields "$made, it printed $got, the count's low 32 bits: reader.lost_events is a __u64; print it as one (%llu, cast to unsigned long long), not through unsigned int"
	elif crashed "$prog_rc" || [ "$prog_rc" != 0 ]; then
		fail step-2-fields "$made, './meta 0' $(status_text $prog_rc)"
	else
		fail step-2-fields "$made, it printed reader.lost_events ${got:-nothing}: print the __u64 meta->reader.lost_events whole"
	fi
fi

trace_reset
run_prog 20 "$dir/meta" 0 watch 5
want="before entries 0 overrun 0 read 0 reader.read 0
after-write entries 0 overrun 0 read 0 reader.read 0
after-get-reader entries 5 overrun 0 read 5 reader.read R
after-reset entries 0 overrun 0 read 0 reader.read 0"
# reader.read after GET_READER is the size of the 5 events: any non-zero value.
norm=$(echo "$prog_out" | sed '/^after-get-reader/s/reader\.read [1-9][0-9]*$/reader.read R/')
if [ "$norm" != "$want" ]; then
	fail step-3-when-it-changes "only GET_READER refreshes the meta-page: after it, 5 entries, 5 read, reader.read the bytes read (R); $(first_diff "$want" "$norm")"
	exit 0
fi
# Once more, with the ioctl made to fail (check_aid skips it and returns
# -1 with an errno chosen per run): the meta-page is then not refreshed, so
# ./meta must not print the after-get-reader line, but one line naming the
# failed call, and exit non-zero.
set -- 4:EINTR 5:EIO 16:EBUSY 19:ENODEV
shift $(rand 0 3)
errno=${1%:*} ename=${1#*:}
trace_reset
run_prog 20 check_aid fail-get-reader $errno "$dir/meta" 0 watch $(rand 2 9)
made="with TRACE_MMAP_IOCTL_GET_READER made to fail ($ename, by the check)"
if crashed "$prog_rc"; then
	fail step-3-when-it-changes "$made, ./meta crashed, $(status_text $prog_rc)"
elif echo "$prog_out" | grep -q '^after-get-reader'; then
	fail step-3-when-it-changes "$made, ./meta printed the after-get-reader line anyway: the ioctl's result was not checked, and those counters are stale; when it returns -1, say so and exit non-zero"
elif [ "$prog_rc" = 0 ]; then
	fail step-3-when-it-changes "$made, ./meta exited 0: when the ioctl returns -1, say so and exit non-zero"
elif ! echo "$prog_out" | grep -qi 'GET_READER\|ioctl'; then
	fail step-3-when-it-changes "$made, ./meta exited non-zero, but no line names the call that failed (GET_READER or ioctl)"
else
	pass step-3-when-it-changes
fi
