# SPDX-License-Identifier: MIT
# examples/trace_mmap_compat.h's own definitions (forced with
# TRACE_MMAP_FORCE_COMPAT) against the real <linux/trace_mmap.h> of the 6.12 uapi
# headers: size, every field's offset and size, the ioctl number.
set -euo pipefail
dir=$B/host/$SUITE
rm -rf "$dir" && mkdir -p "$dir"
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
	if gcc -std=c11 -Wall -Wextra -Werror -Iexamples "$@" -o "$dir/$name" "$dir/layout.c" 2>"$dir/$name.log"; then
		"$dir/$name" >"$dir/$name.out"
	else
		echo "build failed: $(head -n 2 "$dir/$name.log")" >"$dir/$name.out"
	fi
}
build_run real -isystem "$HEADERS_DIR/include"
build_run compat -isystem "$HEADERS_DIR/include" -DTRACE_MMAP_FORCE_COMPAT
if [ "$(tail -n 1 "$dir/real.out")" = "source system" ]; then
	echo "PASS: $SUITE/uses-system-header-when-present"
else
	echo "FAIL: $SUITE/uses-system-header-when-present: $(tail -n 1 "$dir/real.out")"
fi
if diff <(head -n -1 "$dir/real.out") <(head -n -1 "$dir/compat.out") >"$dir/diff"; then
	echo "PASS: $SUITE/layout-and-ioctl-match-6.12"
else
	echo "FAIL: $SUITE/layout-and-ioctl-match-6.12: $(head -n 4 "$dir/diff" | tr '\n' ' ')"
fi
# On this machine's own headers (Debian 12: 6.1, no trace_mmap.h) it builds.
build_run stock
if grep -q '^sizeof 80$' "$dir/stock.out"; then
	echo "PASS: $SUITE/builds-on-stock-headers"
else
	echo "FAIL: $SUITE/builds-on-stock-headers: $(head -n 2 "$dir/stock.out" | tr '\n' ' ')"
fi
