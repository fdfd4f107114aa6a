#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The guest suites on Debian's own kernels (issue 23, part 1): for each
# kernel NAME (vm/debian-kernel.sh fetches it into the cache), our modules
# (examples/modules) built against its headers, the guest's files
# (STAGING, make guest-root) with those modules, its virtio and 9p modules,
# and the suites tests/debian-kernels/NAME.suites names, run in QEMU. Each
# kernel's results go to OUT/NAME.results (its console to OUT/NAME.log)
# and are counted against that kernel's expected failures and skips, each
# with its reason (tests/debian-kernels/NAME.expect); then one line per
# kernel.
# Exit 1 if any kernel failed. --verdict counts one results file against
# one expect file (tests/host/debian-kernels.test.sh tests that).
#   tests/check-debian-kernels.sh OUT STAGING NAME...
#   tests/check-debian-kernels.sh --verdict EXPECT RESULTS
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"
usage="usage: tests/check-debian-kernels.sh OUT STAGING NAME... | --verdict EXPECT RESULTS"

# modules DIR GUEST_ROOT: every examples/modules/NAME built against the
# kernel in DIR (vm/debian-kernel.sh's folder) into GUEST_ROOT's modules/.
# Debian builds BTF for its modules with pahole; ours need none.
modules() {
	local dir=$1 root=$2 src name work
	for src in "$REPO_DIR"/examples/modules/*/; do
		name=$(basename "$src")
		work=$out/$kernel/modules/$name
		rm -rf "$work" && mkdir -p "$work" && cp "$src"* "$work/"
		make -s -C "$dir/build" M="$(cd "$work" && pwd)" CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$work.log" 2>&1 ||
			{ cat "$work.log" >&2; die "$name: the module does not build against $(cat "$dir/release")"; }
		cp "$work/$name.ko" "$root$GUEST_PREFIX/modules/"
	done
}

# verdict EXPECT RESULTS: RESULTS counted against the kernel's expected
# failures and skips (EXPECT: "FAIL|SKIP|FLAKY PATTERN: reason" lines,
# PATTERN a shell pattern of result names; FLAKY: a failure seen in some
# runs only). A FAIL or SKIP no line expects, or a FAIL or SKIP line that
# matched no such result (stale: the kernel or the test changed), fails the
# kernel. The last line: the counts.
verdict() {
	local expect=$1 results=$2 line kind name bad=0 i
	local -a kinds=() pats=() reasons=() used=()
	while IFS= read -r line; do
		[[ $line =~ ^(FAIL|SKIP|FLAKY)\ ([^:]+):\ (.+)$ ]] || continue
		kinds+=("${BASH_REMATCH[1]}") pats+=("${BASH_REMATCH[2]}") reasons+=("${BASH_REMATCH[3]}") used+=(0)
	done < <(sed 's/^#.*//' "$expect")
	local pass=0 fail=0 skip=0 xfail=0 xskip=0
	while IFS= read -r line; do
		kind=${line%%: *} name=${line#*: } name=${name%%: *}
		case $kind in
		PASS) pass=$((pass + 1)); continue ;;
		FAIL) fail=$((fail + 1)) ;;
		SKIP) skip=$((skip + 1)) ;;
		*) continue ;;
		esac
		for i in "${!pats[@]}"; do
			# shellcheck disable=SC2053 # a pattern on purpose
			if { [ "${kinds[$i]}" = "$kind" ] || [ "${kinds[$i]}/$kind" = FLAKY/FAIL ]; } &&
				[[ $name == ${pats[$i]} ]]; then
				used[i]=1
				[ "$kind" = FAIL ] && xfail=$((xfail + 1)) || xskip=$((xskip + 1))
				continue 2
			fi
		done
		echo "Unexpected: ${line:0:300}"
		bad=1
	done < <(tr -d '\r' <"$results" | grep -E '^(PASS|FAIL|SKIP): ' || true)
	for i in "${!pats[@]}"; do
		[ "${used[$i]}" = 1 ] || [ "${kinds[$i]}" = FLAKY ] && continue
		echo "Expected, did not come (stale line in ${expect#"$REPO_DIR/"}): ${kinds[$i]} ${pats[$i]}: ${reasons[$i]}"
		bad=1
	done
	[ $((pass + fail)) -gt 0 ] || { echo "No test ran."; bad=1; }
	echo "$pass passed, $fail failed ($xfail expected), $skip skipped ($xskip expected)"
	return "$bad"
}

# run: the suites on $kernel; its summary, and one line into OUT/summary.
run() {
	local dir root img start boot results=$out/$kernel.results rc=0
	[ -f "$conf/$kernel.suites" ] && [ -f "$conf/$kernel.expect" ] ||
		die "no $conf/$kernel.suites or .expect; the kernels: $("$REPO_DIR/vm/debian-kernel.sh" --names)"
	dir=$("$REPO_DIR/vm/debian-kernel.sh" "$kernel")
	root=$out/$kernel/guest-root
	rm -rf "$root" && mkdir -p "$out/$kernel" && cp -a "$staging" "$root"
	rm -f "$root$GUEST_PREFIX"/modules/*.ko
	modules "$dir" "$root"
	img=$(MODULES_ROOT=$dir/guest-modules "$REPO_DIR/vm/initramfs.sh" "$root")
	suites=$(sed 's/#.*//' "$conf/$kernel.suites" | xargs)
	log "$kernel: $(cat "$dir/release"); suites: $suites"
	start=$SECONDS
	"$REPO_DIR/vm/run.sh" --kernel "$dir/vmlinuz" --initramfs "$img" --timeout "${VM_TIMEOUT:-1800}" \
		--append "tmg.kernel=debian-$kernel" \
		--channel "$results" -- "echo BOOTED \$(cut -d' ' -f1 /proc/uptime) >/dev/ttyS1;" \
		"$GUEST_PREFIX/tests/run-guest-tests.sh $suites" >"$out/$kernel.log" 2>&1 ||
		"$REPO_DIR/tests/result.sh" "debian-$kernel" fail guest-run \
			"the guest run failed (exit $?); see $out/$kernel.log" >>"$results"
	boot=$(sed -n 's/^BOOTED //p' "$results")
	verdict "$conf/$kernel.expect" "$results" >"$out/$kernel.summary" || rc=$?
	echo "== $kernel"
	cat "$out/$kernel.summary"
	echo "$kernel ($(cat "$dir/release")): $(tail -n 1 "$out/$kernel.summary"); boot ${boot:-?} s, run $((SECONDS - start)) s" >>"$out/summary"
	return "$rc"
}

if [ "${1:-}" = --verdict ]; then
	[ $# = 3 ] && [ -f "$2" ] && [ -f "$3" ] || die "$usage"
	verdict "$2" "$3"
	exit
fi
[ $# -ge 3 ] || die "$usage"
out=$1 staging=$2
shift 2
[ -d "$staging" ] || die "staging folder '$staging' does not exist; run 'make guest-root'"
conf=$REPO_DIR/tests/debian-kernels
GUEST_PREFIX=$(sed -n 's/^GUEST_PREFIX=//p' "$REPO_DIR/vm/guest.conf")
mkdir -p "$out"
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
echo "Debian's kernels:"
sed 's/^/  /' "$out/summary"
exit "$status"
