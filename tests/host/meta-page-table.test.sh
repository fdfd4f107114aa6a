#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The meta-page table the guide shows (docs/ringbuffer/meta-page-fields.csv)
# must match struct trace_buffer_meta in the real 6.12 uapi header: every
# field's offset, size and type, and together the whole structure.
set -euo pipefail
cd "$(dirname "$0")/../.."
suite=${SUITE:-meta-page-table}
table=docs/ringbuffer/meta-page-fields.csv
header=$HEADERS_DIR/include/linux/trace_mmap.h
out=$B/host/$suite
rm -rf "$out" && mkdir -p "$out"
if [ ! -f "$header" ]; then
	echo "FAIL: $suite/header: no $header (make kernel installs it)"
	exit 0
fi

# One C line per row: print the field's real offset, size and type check.
{
	echo '#include <stddef.h>'
	echo '#include <stdio.h>'
	echo '#include <linux/trace_mmap.h>'
	echo '#define SZ(f) sizeof(((struct trace_buffer_meta *)0)->f)'
	echo '#define TYPE_OK(f, t) _Generic(((struct trace_buffer_meta *)0)->f, t: 1, default: 0)'
	echo 'int main(void) {'
	tail -n +2 "$table" | while IFS=, read -r field offset size type; do
		echo "	printf(\"%s,%zu,%zu,%s\\n\", \"$field\", offsetof(struct trace_buffer_meta, $field), SZ($field), TYPE_OK($field, $type) ? \"$type\" : \"other\");"
	done
	echo '	printf("sizeof,%zu\n", sizeof(struct trace_buffer_meta));'
	echo '	return 0;'
	echo '}'
} >"$out/fields.c"
if ! gcc -std=c11 -Wall -Werror -isystem "$HEADERS_DIR/include" -o "$out/fields" "$out/fields.c" 2>"$out/gcc.log"; then
	echo "FAIL: $suite/compile: $(head -n 3 "$out/gcc.log" | tr '\n' ' ')"
	exit 0
fi
"$out/fields" >"$out/real.csv"

total=0 end=0
while IFS=, read -r field offset size type; do
	real=$(grep -m1 "^$field," "$out/real.csv")
	if [ "$real" = "$field,$offset,$size,$type" ]; then
		echo "PASS: $suite/$field"
	else
		echo "FAIL: $suite/$field: the guide says $offset,$size,$type; the header says ${real#*,}"
	fi
	total=$((total + size))
	[ $((offset + size)) -le "$end" ] || end=$((offset + size))
done < <(tail -n +2 "$table")
real_size=$(sed -n 's/^sizeof,//p' "$out/real.csv")
if [ "$total" = "$real_size" ] && [ "$end" = "$real_size" ]; then
	echo "PASS: $suite/covers-whole-struct"
else
	echo "FAIL: $suite/covers-whole-struct: the table's fields add up to $total bytes and end at $end; sizeof is $real_size"
fi
