#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel matrix (issue 23 item 2): for each NAME, the guest kernel
# cross-built for another architecture from the same patched tree
# (vm/matrix-kernel.sh NAME), the examples and the guest's C tests built
# static with that architecture's compiler, our modules built against that
# kernel, that architecture's busybox-static (vm/matrix-toolchain.sh), and
# the suites tests/matrix/NAME.suites names, run in QEMU (TCG). The
# results are counted against tests/matrix/NAME.expect (the failures and
# skips expected there, each with its reason; tests/check-debian-kernels.sh
# --verdict). Everything built goes to OUT/NAME/; the kernels and
# toolchains stay in the cache. Then one line per kernel, and the table
# the guide includes (docs/matrix/results.csv) and the series' selftest
# output (docs/matrix/NAME-selftests.txt) and where its sub-buffers start
# (docs/matrix/NAME-layout.txt), written from this run.
# Every build runs under nice -n 19. Exit 1 if any kernel failed.
#   tests/check-matrix.sh OUT NAME...
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"
source "$REPO_DIR/tests/matrix-table.sh"

# guest_root CC [VAR=VALUE...]: the guest's files for this kernel in
# $work/guest-root, built with CC; the variables go to tests/vm's make.
guest_root() {
	local cc=$1 bin=$work/bin root=$work/guest-root prefix src name m
	local -a mk=(nice -n 19 make -s CC="$cc" UAPI="$kdir/headers" LIB_OUT="$work/lib")
	shift
	mkdir -p "$bin"
	"${mk[@]}" -C "$REPO_DIR/examples" O="$bin" STATIC=1 >"$work/build.log" 2>&1 &&
		"${mk[@]}" -C "$REPO_DIR/tests/vm" O="$bin" TREE="$TREE_DIR" M32=0 "$@" >>"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" >&2; die "$kernel: the guest programs do not build; log: $work/build.log"; }
	prefix=$root$GUEST_PREFIX
	rm -rf "$root" && mkdir -p "$prefix/bin" "$prefix/modules" "$prefix/tests"
	cp -p "$bin"/* "$prefix/bin/"
	cp -p "$REPO_DIR"/tests/vm/*.sh "$REPO_DIR/tests/results.sh" "$prefix/tests/"
	# The kernel's make command line (nice, ARCH, CROSS_COMPILE, O).
	read -ra m < <("$REPO_DIR/vm/matrix-kernel.sh" --make "$kernel")
	for src in "$REPO_DIR"/examples/modules/*/; do
		name=$(basename "$src")
		rm -rf "$work/modules/$name" && mkdir -p "$work/modules/$name" && cp "$src"* "$work/modules/$name/"
		"${m[@]}" M="$work/modules/$name" modules >"$work/modules/$name.log" 2>&1 ||
			{ cat "$work/modules/$name.log" >&2; die "$kernel: module $name does not build"; }
		cp "$work/modules/$name/$name.ko" "$prefix/modules/"
	done
}

run() {
	local arch fragment img start boot release results rc=0 applets=''
	fragment=$REPO_DIR/vm/matrix/$kernel.config
	[ -f "$conf/$kernel.suites" ] && [ -f "$conf/$kernel.expect" ] && [ -f "$fragment" ] ||
		die "no $conf/$kernel.suites, .expect or vm/matrix/$kernel.config; the kernels: $("$REPO_DIR/vm/matrix-kernel.sh" --names)"
	arch=$(sed -n 's/^# matrix-arch: //p' "$fragment")
	start=$SECONDS
	kdir=$("$REPO_DIR/vm/matrix-kernel.sh" "$kernel")
	echo "$kernel: kernel ready in $((SECONDS - start)) s" >&2
	work=$out/$kernel
	results=$work/results
	mkdir -p "$work"
	start=$SECONDS
	# The applet list from the host's busybox, the same Debian version: the
	# guest's cannot run here (arm64, s390x; i386 where the host kernel
	# has no IA32 emulation, as here: "Exec format error").
	applets=/bin/busybox
	case $arch in
	arm64) guest_root "$kdir/toolchain/usr/bin/aarch64-linux-gnu-gcc" ;;
	s390) guest_root "$kdir/toolchain/usr/bin/s390x-linux-gnu-gcc" ;;
	# A variant of our own kernel (vm/variants/): the host's gcc.
	x86_64) guest_root gcc ;;
	# The kselftest harness's ASSERT_NE(NULL, pointer) casts a pointer to
	# intmax_t, which gcc warns about where a pointer is 32 bits.
	i386) guest_root "gcc -m32" CFLAGS="-O2 -g -Wno-pointer-to-int-cast" \
		RB_CFLAGS="-O2 -Wall -Werror -Wno-pointer-to-int-cast" ;;
	esac
	img=$(BUSYBOX=$kdir/toolchain/busybox BUSYBOX_APPLETS=$applets GEN_INIT_CPIO=$kdir/build/usr/gen_init_cpio \
		MODULES_ROOT=$kdir/modules "$REPO_DIR/vm/initramfs.sh" "$work/guest-root")
	echo "$kernel: guest files and initramfs in $((SECONDS - start)) s" >&2
	suites=$(sed 's/#.*//' "$conf/$kernel.suites" | xargs)
	log "$kernel: $(basename "$(readlink "$kdir/image")") for $arch; suites: $suites"
	start=$SECONDS
	: >"$results"
	GEN_INIT_CPIO=$kdir/build/usr/gen_init_cpio "$REPO_DIR/vm/run.sh" --arch "$arch" --kernel "$kdir/image" \
		--initramfs "$img" --timeout "${VM_TIMEOUT:-3600}" --channel "$results" -- \
		"echo BOOTED \$(cut -d' ' -f1 /proc/uptime) \$(uname -r -m) >/dev/ttyS1;" \
		"$GUEST_PREFIX/tests/run-guest-tests.sh $suites" >"$work/console.log" 2>&1 ||
		"$REPO_DIR/tests/result.sh" "matrix-$kernel" fail guest-run \
			"the guest run failed (exit $?); see $work/console.log" >>"$results"
	boot=$(sed -n 's/^BOOTED //p' "$results")
	"$REPO_DIR/tests/check-debian-kernels.sh" --verdict "$conf/$kernel.expect" "$results" >"$work/summary" || rc=$?
	echo "== $kernel"
	cat "$work/summary"
	echo "$kernel: $(tail -n 1 "$work/summary"); boot ${boot:-?}, run $((SECONDS - start)) s" >>"$out/summary"
	read -r boot release <<<"${boot:-? ? ?}"
	matrix_row "$kernel" "$kdir/build/.config" "$release" "$suites" "$(tail -n 1 "$work/summary")" "$rc" \
		"$boot" $((SECONDS - start)) "$commit" >"$work/row.csv"
	# The selftests' output as they ran (rb-selftests: map_test, then
	# map_rules_test; its second run left out), our result lines left out.
	tr -d '\r' <"$work/console.log" | awk '
		/^=== .*\/rb-selftests\.test\.sh$/ { in_suite = 1 }
		in_suite && /^TAP version/ { on = 1 }
		on && !/^(PASS|FAIL|SKIP): / { print }
		on && /^# Totals:/ { on = 0; if (++n == 2) exit }' >"$work/selftests.txt" || true
	# Where the kernel put the sub-buffers (the foundation suite's
	# "layout:" lines: check_aid offsets with 8 KiB sub-buffers asked for).
	tr -d '\r' <"$work/console.log" | sed -n 's/^layout: //p' >"$work/layout.txt" || true
	return "$rc"
}

[ $# -ge 2 ] || die "usage: tests/check-matrix.sh OUT NAME..."
out=$1
shift
conf=$REPO_DIR/tests/matrix
commit=$(matrix_commit)
GUEST_PREFIX=$(sed -n 's/^GUEST_PREFIX=//p' "$REPO_DIR/vm/guest.conf")
mkdir -p "$out"
out=$(cd "$out" && pwd)
status=0
: >"$out/summary"
for kernel in "$@"; do
	set +e
	(
		set -e
		run
	)
	rc=$?
	set -e
	[ "$rc" = 0 ] || status=1
done
echo "The kernel matrix:"
sed 's/^/  /' "$out/summary"
# The guide's table: the rows of the kernels that ran replaced, the others
# kept; the selftests' output of each that ran them.
docs=$REPO_DIR/docs/matrix
rows=()
for name in "$@"; do
	[ ! -f "$out/$name/row.csv" ] || rows+=("$out/$name/row.csv")
done
[ ${#rows[@]} = 0 ] || matrix_table "${rows[@]}"
for name in "$@"; do
	[ ! -s "$out/$name/selftests.txt" ] || cp "$out/$name/selftests.txt" "$docs/$name-selftests.txt"
	[ ! -s "$out/$name/layout.txt" ] || cp "$out/$name/layout.txt" "$docs/$name-layout.txt"
done
echo "check-matrix: docs/matrix/results.csv and the selftests' output written; review with git diff"
exit "$status"
