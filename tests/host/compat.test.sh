# SPDX-License-Identifier: MIT
# examples/lib/trace_mmap_compat.h's own definitions (forced with
# TRACE_MMAP_FORCE_COMPAT) against the real <linux/trace_mmap.h> of the 6.12
# uapi headers: size, every field's offset and size, the ioctl number. And
# examples/lib/ring_buffer_format.h's constants against the 6.12 tree's
# kernel/trace/ring_buffer.c and include/linux/ring_buffer.h.
. tests/host/lib.sh
dir=$WORK_DIR
cat >"$dir/layout.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include "trace_mmap_compat.h"
#define F(m) printf(#m " %zu %zu\n", offsetof(struct trace_buffer_meta, m), \
		    sizeof(((struct trace_buffer_meta *)0)->m))
int main(void)
{
	printf("sizeof %zu\n", sizeof(struct trace_buffer_meta));
	F(meta_page_size); F(meta_struct_len); F(subbuf_size); F(nr_subbufs);
	F(reader.lost_events); F(reader.id); F(reader.read); F(flags);
	F(entries); F(overrun); F(read); F(Reserved1); F(Reserved2);
	printf("ioctl 0x%lx\n", (unsigned long)TRACE_MMAP_IOCTL_GET_READER);
#ifdef TRACE_MMAP_HAVE_SYSTEM_HEADER
	printf("source system\n");
#else
	printf("source compat\n");
#endif
	return 0;
}
C
build_run() {
	local name=$1
	shift
	if build_c "$dir/$name" "$@" "$dir/layout.c"; then
		"$dir/$name" >"$dir/$name.out"
	else
		echo "build failed: $(head -n 2 "$dir/$name.log")" >"$dir/$name.out"
	fi
}
build_run real -isystem "$HEADERS_DIR/include"
build_run compat -isystem "$HEADERS_DIR/include" -DTRACE_MMAP_FORCE_COMPAT
expect_eq uses-system-header-when-present "source system" "$(tail -n 1 "$dir/real.out")"
if diff <(head -n -1 "$dir/real.out") <(head -n -1 "$dir/compat.out") >"$dir/diff"; then
	pass layout-and-ioctl-match-6.12
else
	fail layout-and-ioctl-match-6.12 "$(head -n 4 "$dir/diff")"
fi
# On this machine's own headers (Debian 12: 6.1, no trace_mmap.h) it builds.
build_run stock
expect_match builds-on-stock-headers '^sizeof 80$' "$(cat "$dir/stock.out")"

# The sub-buffer format: ours, printed by a program, and the kernel's, read
# from the tree's source (its #defines and the ring_buffer_type enum).
cat >"$dir/format.c" <<'C'
#include <stdio.h>
#include "ring_buffer_format.h"
int main(void)
{
	printf("RB_MISSED_EVENTS %u\nRB_MISSED_STORED %u\nRB_MISSED_MASK %u\n",
	       RB_MISSED_EVENTS, RB_MISSED_STORED, RB_MISSED_MASK);
	printf("TS_SHIFT %d\nRINGBUF_TYPE_DATA_TYPE_LEN_MAX %d\n", RB_TS_SHIFT,
	       RB_TYPE_DATA_MAX);
	printf("RINGBUF_TYPE_PADDING %d\nRINGBUF_TYPE_TIME_EXTEND %d\n",
	       RB_TYPE_PADDING, RB_TYPE_TIME_EXTEND);
	printf("RINGBUF_TYPE_TIME_STAMP %d\n", RB_TYPE_TIME_STAMP);
	return 0;
}
C
check_build format-builds "$dir/format" "$dir/format.c" || exit 0
"$dir/format" >"$dir/format.ours"
rb=$TREE_DIR/kernel/trace/ring_buffer.c
# "#define NAME (A << B)" or "#define NAME N" -> NAME VALUE
define() {
	local expr
	expr=$(sed -n "s/^#define $1[[:space:]]*(*\([0-9]*\)[[:space:]]*<<[[:space:]]*\([0-9]*\))*.*/\1 << \2/p; s/^#define $1[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p" "$rb" | head -n 1)
	[ -n "$expr" ] && echo "$1 $((expr))"
}
{
	define RB_MISSED_EVENTS
	define RB_MISSED_STORED
	define RB_MISSED_MASK
	define TS_SHIFT
	awk '/enum ring_buffer_type/ { on = 1 } on && /RINGBUF_TYPE_DATA_TYPE_LEN_MAX = / { n = $3 + 0; print "RINGBUF_TYPE_DATA_TYPE_LEN_MAX", n; next }
		on && n && /RINGBUF_TYPE_[A-Z_]*,/ { gsub(/[\t ,]/, ""); print $0, ++n } on && /};/ { exit }' \
		"$TREE_DIR/include/linux/ring_buffer.h" | head -n 4
} >"$dir/format.kernel"
while read -r name want; do
	expect_eq "format-$name" "$want" "$(awk -v n="$name" '$1 == n { print $2 }' "$dir/format.ours")"
done <"$dir/format.kernel"
expect_eq format-all-compared 8 "$(wc -l <"$dir/format.kernel")"
