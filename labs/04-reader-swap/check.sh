#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 04 in the guest: the learner's ./swap on a non-blocking and a
# blocking fd, with buffer_percent, and on a partly read sub-buffer.
#   sh check.sh DIR
SUITE=${SUITE:-labs/04-reader-swap}
. "$(dirname "$0")/../check-lib.sh"
lab_start "$1" swap step-1-nonblock
out=/tmp/lab04.out

trace_reset
got=$(timeout 5 "$dir/swap" 0 nonblock 2>&1) || [ $? != 143 ] || got="(still blocked after 5 s: is the fd O_NONBLOCK?)"
case $got in
"nonblock rc 0 reader.id "*" reader.read 0 commit 0") pass step-1-nonblock ;;
*) fail step-1-nonblock "on an empty buffer a non-blocking GET_READER returns 0 at once; got '$(echo "$got" | tr '\n' ' ')'" ;;
esac

# step_block NAME PERCENT FIRST MORE: start a blocking ./swap, write FIRST
# events; it must still wait; write MORE; it must wake with data.
step_block() {
	local name=$1 percent=$2 first=$3 more=$4 pid
	trace_reset
	echo 8 >$TRACEFS/buffer_size_kb # 2 sub-buffers and the reader's per CPU
	"$dir/swap" 0 block "$percent" >$out 2>&1 &
	pid=$!
	sleep 1
	[ "$first" = 0 ] || { markers "lab04 fill" 0 "$first"; sleep 1; }
	if ! alive $pid; then
		fail "$name" "returned before buffer_percent ($percent%) was reached: $(tr '\n' ' ' <$out)"
		return
	fi
	markers "lab04 fill" 0 "$more"
	if ! wait_exit $pid 5; then
		kill $pid
		fail "$name" "still blocked 5 s after $more events (buffer_percent $percent); $(tr '\n' ' ' <$out)"
	elif grep -q '^woke rc 0 reader.id [0-9]* reader.read [1-9][0-9]* commit [1-9]' $out; then
		pass "$name"
	else
		fail "$name" "want 'woke rc 0' with data on the reader sub-buffer; got '$(tr '\n' ' ' <$out)'"
	fi
}
step_block step-2-block 0 0 1
step_block step-3-buffer-percent 50 1 300
grep -qx 50 $TRACEFS/buffer_percent || fail step-3-buffer-percent "buffer_percent is '$(cat $TRACEFS/buffer_percent)', not 50"

trace_reset
got=$(timeout 5 "$dir/swap" 0 partial 2>&1)
first=$(echo "$got" | sed -n 's/^first rc 0 reader.id \([0-9]*\) reader.read \([0-9]*\) commit \2$/\1 \2/p')
second=$(echo "$got" | sed -n 's/^second rc 0 reader.id \([0-9]*\) reader.read \([0-9]*\) commit \2$/\1 \2/p')
new=$(echo "$got" | grep '^new ')
if [ -z "$first" ] || [ "${first% *}" != "${second% *}" ]; then
	fail step-4-partial "the second call should keep the same reader sub-buffer; got '$(echo "$got" | tr '\n' ' ')'"
elif [ "$new" != "new lab04 second" ]; then
	fail step-4-partial "decode from where the first call left reader.read, up to the new reader.read: want only 'new lab04 second', got '$(echo "$new" | tr '\n' ' ')'"
else
	pass step-4-partial
fi
trace_reset
