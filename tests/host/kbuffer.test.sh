# SPDX-License-Identifier: MIT
# Differential test: examples/tracemap.c against libtraceevent's kbuffer
# (libtraceevent-dev) on synthetic sub-buffers and on ones captured in the
# guest (tests/host/data). Known disagreements are tests of their own, with
# the reason in kbuffer_diff.c.
set -euo pipefail
dir=$B/host/$SUITE
rm -rf "$dir" && mkdir -p "$dir"
if [ ! -f /usr/include/traceevent/kbuffer.h ]; then
	echo "FAIL: $SUITE/libtraceevent: libtraceevent-dev is not installed (make deps)"
	exit 0
fi
if ! gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -Iexamples -Itests/host \
	-o "$dir/kbuffer_diff" tests/host/kbuffer_diff.c examples/tracemap.c -ltraceevent \
	2>"$dir/build.log"; then
	echo "FAIL: $SUITE/build: $(head -n 3 "$dir/build.log" | tr '\n' ' ')"
	exit 0
fi
"$dir/kbuffer_diff" tests/host/data/cap4k.raw 4096 tests/host/data/cap8k.raw 8192 || true
