#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 03 in the guest: write one trace_marker event on CPU 0, let the
# learner's ./first_event decode it, and compare with what was written.
#   sh check.sh DIR
SUITE=${SUITE:-labs/03-first-event}
. "$(dirname "$0")/../check-lib.sh"
lab_start "$1" first_event step-1-address
field() { echo "$out" | sed -n "s/^$1 //p"; }

trace_reset
msg="lab03 says hello $(date +%s)"
taskset -c 0 sh -c "echo \$\$ >/tmp/lab03.pid; echo '$msg' >$TRACEFS/trace_marker"
pid=$(cat /tmp/lab03.pid)
meta=$(meta_page 0)
out=$(timeout 20 "$dir/first_event" 0 2>&1)
echo "$out"
# What trace_marker stores: struct trace_entry and ip (16 bytes), the text
# with its newline, a NUL and one spare byte; rounded up to 4 bytes.
size=$(((16 + ${#msg} + 1 + 2 + 3) / 4 * 4))
if [ "$size" -le 112 ]; then
	type_len=$((size / 4)) length=$((size + 4))
else
	type_len=0 length=$((size + 8))
fi

mps=$(echo "$meta" | sed -n 's/^meta_page_size //p')
nr=$(echo "$meta" | sed -n 's/^nr_subbufs //p')
id=$(field reader.id)
if [ -z "$id" ] || [ "$id" -ge "$nr" ]; then
	fail step-1-address "reader.id '$id' is not an ID below nr_subbufs ($nr)"
else
	expect_eq step-1-address "$((mps + id * mps))" "$(field offset)"
fi

if [ "$(field commit)" = "$length" ] && [ "$(field time_stamp)" != 0 ]; then
	pass step-2-header
else
	fail step-2-header "one event of $length bytes: commit (low 32 bits, flags masked) should be $length and time_stamp non-zero; got commit '$(field commit)', time_stamp '$(field time_stamp)'"
fi

if [ "$(field type_len)" = "$type_len" ] && [ "$(field length)" = "$length" ]; then
	pass step-3-event-header
else
	fail step-3-event-header "type_len is the low 5 bits of the first u32 at data (byte 16): want type_len $type_len, length $length; got '$(field type_len)', '$(field length)'"
fi

if [ "$(field common_type)" = 5 ] && [ "$(field common_pid)" = "$pid" ] && [ "$(field buf)" = "$msg" ]; then
	pass step-4-payload
else
	fail step-4-payload "want common_type 5 (ftrace/print), common_pid $pid, buf '$msg'; got '$(field common_type)', '$(field common_pid)', '$(field buf)'"
fi
trace_reset
