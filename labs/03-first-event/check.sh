#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 03 in the guest: write one trace_marker event on CPU 0, let the
# learner's ./first_event decode it, and compare with what was written.
#   sh check.sh DIR
SUITE=${SUITE:-labs/03-first-event}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" first_event step-1-address
field() { echo "$out" | sed -n "s/^$1 //p"; }

trace_reset
msg="lab03 says hello $(date +%s)"
taskset -c 0 sh -c "echo \$\$ >/tmp/lab03.pid; echo '$msg' >$TRACEFS/trace_marker"
pid=$(cat /tmp/lab03.pid)
meta=$(meta_page 0)
run_prog 20 "$dir/first_event" 0
out=$prog_out
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
	want=$((mps + id * $(echo "$meta" | sed -n 's/^subbuf_size //p')))
	if [ "$(field offset)" = "$want" ]; then
		pass step-1-address
	else
		fail step-1-address "the reader sub-buffer starts at meta_page_size + reader.id * subbuf_size = $want; got offset '$(field offset)'"
	fi
fi

if [ "$(field commit)" = "$length" ] && [ "$(field time_stamp)" != 0 ]; then
	pass step-2-header
else
	fail step-2-header "one event of $length bytes: commit (low 32 bits, flags masked) should be $length and time_stamp non-zero; got commit '$(field commit)', time_stamp '$(field time_stamp)'"
fi

if [ "$(field type_len)" != "$type_len" ]; then
	fail step-3-event-header "type_len is the low 5 bits of the first u32 of the data, at byte 16 after the sub-buffer header: want type_len $type_len; got '$(field type_len)'"
elif [ "$(field length)" != "$length" ]; then
	fail step-3-event-header "length is the whole record, its 4-byte header and the payload: want length $length; got '$(field length)'"
else
	pass step-3-event-header
fi

why=''
[ "$(field common_type)" = 5 ] || why="common_type is the u16 at payload byte 0: want 5 (ftrace/print), got '$(field common_type)'"
[ "$(field common_pid)" = "$pid" ] || why="${why:+$why; }common_pid is the int at payload byte 4: want $pid, got '$(field common_pid)'"
[ "$(field buf)" = "$msg" ] || why="${why:+$why; }buf is the text at payload byte 16: want '$msg', got '$(field buf)'"
if [ -z "$why" ]; then pass step-4-payload; else fail step-4-payload "$why"; fi
trace_reset
