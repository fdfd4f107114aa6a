#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The allocinfo tool (examples/demos/allocinfo.c) on made-up snapshots in the
# kernel's exact format ("%12lli %8llu tag " with the trailing space): top
# sites, sorting, filters, diff, and its refusal of bad input.
. tests/host/lib.sh
out=$WORK_DIR
tool=$EXAMPLES/allocinfo
build_examples builds allocinfo || exit 0

# snapshot FILE: "bytes calls tag" lines on stdin, printed as the kernel does.
snapshot() {
	{
		echo "allocinfo - version: 1.0"
		echo "#     <size>  <calls> <tag info>"
		while read -r bytes calls tag; do
			printf '%12lli %8llu %s \n' "$bytes" "$calls" "$tag"
		done
	} >"$1"
}
snapshot "$out/old" <<'X'
0 0 init/main.c:1311 func:do_initcalls
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio
795328 5848 fs/kernfs/dir.c:624 func:__kernfs_new_node
25120 2856 mm/util.c:64 func:kstrdup
4096 1 drivers/foo/foo.c:10 [foo] func:foo_init
819200 200 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks
X
snapshot "$out/new" <<'X'
0 0 init/main.c:1311 func:do_initcalls
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio
799424 5850 fs/kernfs/dir.c:624 func:__kernfs_new_node
25000 2850 mm/util.c:64 func:kstrdup
1024000 250 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks
64 2 drivers/bar/bar.c:7 [bar] func:bar_probe
X

# expect NAME WANT ARGS...: the tool's output with ARGS (columns squeezed).
expect() {
	local name=$1 want=$2 got
	shift 2
	if ! got=$("$tool" "$@" 2>&1 | tr -s ' ' | sed 's/^ //'); then
		fail "$name" "exited non-zero: $got"
	else
		expect_eq "$name" "$want" "$got"
	fi
}
# refuse NAME MESSAGE ARGS...: exit 1 with exactly this one line on stderr.
refuse() {
	local name=$1 want=$2 rc=0 want_rc=${want_rc:-1}
	shift 2
	"$tool" "$@" >/dev/null 2>"$out/err" || rc=$?
	expect_eq "$name" "exit $want_rc: $want" "exit $rc: $(cat "$out/err")"
}

expect top-by-bytes "bytes calls site
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio
819200 200 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks" -n 2 "$out/old"
expect top-by-calls "bytes calls site
795328 5848 fs/kernfs/dir.c:624 func:__kernfs_new_node
25120 2856 mm/util.c:64 func:kstrdup" -s calls -n 2 "$out/old"
expect_eq n-0-lists-all "7 lines" "$("$tool" -n 0 "$out/old" | wc -l) lines"
expect filter-module "bytes calls site
4096 1 drivers/foo/foo.c:10 [foo] func:foo_init" -m foo "$out/old"
expect filter-vmlinux "bytes calls site
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio
795328 5848 fs/kernfs/dir.c:624 func:__kernfs_new_node" -m vmlinux -n 2 "$out/old"
expect filter-file "bytes calls site
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio
25120 2856 mm/util.c:64 func:kstrdup" -f mm/ "$out/old"
expect filter-function "bytes calls site
25120 2856 mm/util.c:64 func:kstrdup" -F kstrdup "$out/old"
expect filter-function-exact "bytes calls site" -F kstr "$out/old"
expect stdin "bytes calls site
8429568 2058 mm/shmem.c:1838 func:shmem_alloc_folio" -n 1 - <"$out/old"

expect diff-by-bytes "+bytes +calls bytes calls site
+204800 +50 1024000 250 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks
+4096 +2 799424 5850 fs/kernfs/dir.c:624 func:__kernfs_new_node
+64 +2 64 2 drivers/bar/bar.c:7 [bar] func:bar_probe
-120 -6 25000 2850 mm/util.c:64 func:kstrdup
-4096 -1 0 0 drivers/foo/foo.c:10 [foo] func:foo_init" diff "$out/old" "$out/new"
expect diff-by-calls "+bytes +calls bytes calls site
+204800 +50 1024000 250 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks" -s calls -n 1 diff "$out/old" "$out/new"
expect diff-filtered "+bytes +calls bytes calls site
+204800 +50 1024000 250 alloc_leak/alloc_leak.c:31 [alloc_leak] func:leak_blocks" -m alloc_leak diff "$out/old" "$out/new"
expect diff-identical "+bytes +calls bytes calls site" diff "$out/old" "$out/old"

printf 'MemTotal: 1 kB\n' >"$out/notallocinfo"
refuse not-allocinfo "allocinfo: $out/notallocinfo: not an allocinfo version 1 file" "$out/notallocinfo"
: >"$out/empty"
refuse empty-file "allocinfo: $out/empty: empty" "$out/empty"
{ head -n 3 "$out/old"; echo "   12 x mm/a.c:1 func:f "; } >"$out/badline"
refuse bad-number "allocinfo: $out/badline:4: not an allocinfo line" "$out/badline"
{ head -n 3 "$out/old"; echo "   12 1 mm/a.c:1 [mod func:f "; } >"$out/badmod"
refuse bad-module "allocinfo: $out/badmod:4: not an allocinfo line" "$out/badmod"
{ head -n 3 "$out/old"; echo "   12 1 mm/a.c func:f "; } >"$out/noline"
refuse no-line-number "allocinfo: $out/noline:4: not an allocinfo line" "$out/noline"
refuse missing-file "allocinfo: cannot open $out/nonexistent" "$out/nonexistent"
# Bad usage: exit 2 (examples/common/cli.h).
want_rc=2 refuse bad-sort "allocinfo: --sort: 'size' is neither bytes nor calls (allocinfo --help lists the options)" -s size "$out/old"
want_rc=2 refuse bad-count "allocinfo: --lines: 'ten' is not a number of 0 or more (allocinfo --help lists the options)" -n ten "$out/old"
