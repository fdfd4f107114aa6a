#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 02 in the guest: the learner's ./meta against the project's
# meta_page example, and when the meta-page changes.
#   sh check.sh DIR
SUITE=${SUITE:-labs/02-meta-page}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" meta step-1-map
sizes() { echo "$1" | grep -E '^(meta_page_size|meta_struct_len|subbuf_size|nr_subbufs) '; }

trace_reset
want=$(meta_page 0)
run_prog 20 "$dir/meta" 0
if [ "$prog_rc" != 0 ]; then
	case $prog_out in
	*"Operation not permitted"*) why="mmap said EPERM: the kernel maps the ring buffer MAP_SHARED only" ;;
	*"Permission denied"*) why="mmap said EACCES: the fd is read-only, so map it PROT_READ only" ;;
	*) why="'./meta 0' $(status_text $prog_rc)" ;;
	esac
	fail step-1-map "$why"
elif [ -z "$(sizes "$prog_out")" ] || [ "$(sizes "$prog_out")" != "$(sizes "$want")" ]; then
	fail step-1-map "mapped, but the sizes differ; $(first_diff "$(sizes "$want")" "$(sizes "$prog_out")")"
else
	pass step-1-map
fi

# Events on CPU 0 that nobody has read: the meta-page still says 0 entries.
taskset -c 0 sh -c "echo one >$TRACEFS/trace_marker; echo two >$TRACEFS/trace_marker"
want=$(meta_page 0)
run_prog 20 "$dir/meta" 0
expect_lines step-2-fields "print every field from meta_page_size to read (the reserved ones after it are not needed) as 'name value', in struct order" \
	"$want" "$prog_out"

trace_reset
run_prog 20 "$dir/meta" 0 watch 5
want="before entries 0 overrun 0 read 0 reader.read 0
after-write entries 0 overrun 0 read 0 reader.read 0
after-get-reader entries 5 overrun 0 read 5 reader.read R
after-reset entries 0 overrun 0 read 0 reader.read 0"
# reader.read after GET_READER is the size of the 5 events: any non-zero value.
norm=$(echo "$prog_out" | sed '/^after-get-reader/s/reader\.read [1-9][0-9]*$/reader.read R/')
expect_lines step-3-when-it-changes "only GET_READER refreshes the meta-page: after it, 5 entries, 5 read, reader.read the bytes read (R)" \
	"$want" "$norm"
