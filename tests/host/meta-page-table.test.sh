#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The meta-page table the guide shows (docs/ringbuffer/meta-page-fields.csv)
# must match struct trace_buffer_meta in the real 6.12 uapi header: every
# field's offset, size and type, and together the whole structure.
. tests/host/lib.sh
table=docs/ringbuffer/meta-page-fields.csv
header=$HEADERS_DIR/include/linux/trace_mmap.h
out=$WORK_DIR
if [ ! -f "$header" ]; then
	fail header "no $header (make kernel installs it)"
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
UAPI=$HEADERS_DIR check_build compile "$out/fields" "$out/fields.c" || exit 0
"$out/fields" >"$out/real.csv"

total=0 end=0
while IFS=, read -r field offset size type; do
	real=$(grep -m1 "^$field," "$out/real.csv")
	expect_eq "$field" "$field,$offset,$size,$type" "$real"
	total=$((total + size))
	[ $((offset + size)) -le "$end" ] || end=$((offset + size))
done < <(tail -n +2 "$table")
real_size=$(sed -n 's/^sizeof,//p' "$out/real.csv")
if [ "$total" = "$real_size" ] && [ "$end" = "$real_size" ]; then
	pass covers-whole-struct
else
	fail covers-whole-struct "the table's fields add up to $total bytes and end at $end; sizeof is $real_size"
fi
