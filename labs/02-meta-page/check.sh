#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 02 in the guest: the learner's ./meta against the project's
# meta_page example, and when the meta-page changes.
#   sh check.sh DIR
SUITE=${SUITE:-labs/02-meta-page}
. "$(dirname "$0")/../check-lib.sh"
lab_start "$1" meta step-1-map
oneline() { echo "$1" | tr '\n' ' '; }

trace_reset
want=$(meta_page 0)
got=$(timeout 20 "$dir/meta" 0 2>&1)
rc=$?
sizes() { echo "$1" | grep -E '^(meta_page_size|meta_struct_len|subbuf_size|nr_subbufs) '; }
if [ "$rc" != 0 ]; then
	fail step-1-map "'meta 0' exited $rc: $(oneline "$got" | cut -c1-200)"
elif [ -z "$(sizes "$got")" ] || [ "$(sizes "$got")" != "$(sizes "$want")" ]; then
	fail step-1-map "mapped, but the sizes differ: want '$(oneline "$(sizes "$want")")', got '$(oneline "$(sizes "$got")")'"
else
	pass step-1-map
fi

# Events on CPU 0 that nobody has read: the meta-page still says 0 entries.
taskset -c 0 sh -c "echo one >$TRACEFS/trace_marker; echo two >$TRACEFS/trace_marker"
want=$(meta_page 0)
got=$(timeout 20 "$dir/meta" 0 2>&1)
if [ "$got" = "$want" ]; then
	pass step-2-fields
else
	fail step-2-fields "print every field as 'name value' in struct order, like: $(oneline "$want" | cut -c1-240)"
fi

trace_reset
got=$(timeout 20 "$dir/meta" 0 watch 5 2>&1)
want="before entries 0 overrun 0 read 0 reader.read 0
after-write entries 0 overrun 0 read 0 reader.read 0
after-get-reader entries 5 overrun 0 read 5 reader.read R
after-reset entries 0 overrun 0 read 0 reader.read 0"
# reader.read after GET_READER is the size of the 5 events: any non-zero value.
norm=$(echo "$got" | sed '/^after-get-reader/s/reader\.read [1-9][0-9]*$/reader.read R/')
if [ "$norm" = "$want" ]; then
	pass step-3-when-it-changes
else
	fail step-3-when-it-changes "after GET_READER the meta-page must show 5 entries, 5 read; got: $(oneline "$got" | cut -c1-300)"
fi
trace_reset
