#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The guest suites on Debian's own kernels (issue 23, part 1): for each
# kernel NAME (vm/debian-kernel.sh fetches it into the cache), our modules
# (examples/modules) built against its headers (kept in the cache, keyed by
# their sources' hash), the guest's files (STAGING, make guest-root) with
# those modules, its virtio and 9p modules, and the suites
# tests/debian-kernels/NAME.suites names, run in QEMU. Each kernel's
# results go to OUT/NAME.results (its console to OUT/NAME.log, its kernel
# log, dmesg after the suites, to OUT/NAME.dmesg) and are
# counted against that kernel's expected failures and skips, each with its
# reason (tests/debian-kernels/NAME.expect); then one line per kernel, and
# the kernels' rows of the guide's table (docs/matrix/results.csv,
# tests/matrix-table.sh), written from this run.
# With --check (make check's piece): the suites NAME.check-suites names
# (a few), the expect lines of those suites only, no table written, and on
# stdout one result line per kernel, debian-guest/NAME, passed when its
# results are what NAME.expect says and are the ones NAME.check-results
# declares, no more, no fewer (the kernel's own lines stay in
# OUT/NAME.results; tests/update-plan.sh writes NAME.check-results).
# Exit 1 if any kernel failed. --verdict counts one results file against
# one expect file, or its lines of the SUITES named, and against a PLAN of
# declared results when given (tests/host/debian-kernels.test.sh tests that).
#   tests/check-debian-kernels.sh [--check] OUT STAGING NAME...
#   tests/check-debian-kernels.sh --verdict EXPECT RESULTS [SUITES [PLAN]]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"
source "$REPO_DIR/tests/matrix-table.sh"
usage="usage: tests/check-debian-kernels.sh [--check] OUT STAGING NAME... | --verdict EXPECT RESULTS [SUITES [PLAN]]"

# modules DIR GUEST_ROOT: every examples/modules/NAME built against the
# kernel in DIR (vm/debian-kernel.sh's folder) into GUEST_ROOT's modules/.
# The build is kept in DIR/our-modules/HASH (HASH: of the modules' sources)
# and reused: under TCG's neighbours it takes minutes. Debian builds BTF
# for its modules with pahole; ours need none.
modules() {
	local dir=$1 root=$2 src name work hash cache
	hash=$(cd "$REPO_DIR/examples/modules" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
	cache=$dir/our-modules/$hash
	if [ ! -d "$cache" ]; then
		for src in "$REPO_DIR"/examples/modules/*/; do
			name=$(basename "$src")
			work=$out/$kernel/modules/$name
			rm -rf "$work" && mkdir -p "$work" && cp "$src"* "$work/"
			make -s -C "$dir/build" M="$(cd "$work" && pwd)" CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$work.log" 2>&1 ||
				{ cat "$work.log" >&2; die "$name: the module does not build against $(cat "$dir/release")"; }
		done
		# Only the build of the current sources is kept.
		rm -rf "$dir/our-modules" && mkdir -p "$cache.tmp"
		cp "$out/$kernel"/modules/*/*.ko "$cache.tmp/"
		mv "$cache.tmp" "$cache"
	fi
	cp "$cache"/*.ko "$root$GUEST_PREFIX/modules/"
}

# verdict EXPECT RESULTS: RESULTS counted against the kernel's expected
# failures and skips (EXPECT: "FAIL|SKIP|FLAKY PATTERN: reason" lines,
# PATTERN a shell pattern of result names; FLAKY: a failure seen in some
# runs only). A FAIL or SKIP no line expects, or a FAIL or SKIP line that
# matched no such result (stale: the kernel or the test changed), fails the
# kernel. With SUITES (names, space-separated), only the expect lines of
# those suites count. With PLAN (one result name a line, # comments), a
# declared result that never came (a suite that ended early) or one not
# declared fails the kernel too. The last line: the counts.
verdict() {
	local expect=$1 results=$2 suites=${3:-} plan=${4:-} line kind name bad=0 i
	local -a kinds=() pats=() reasons=() used=()
	while IFS= read -r line; do
		[[ $line =~ ^(FAIL|SKIP|FLAKY)\ ([^:]+):\ (.+)$ ]] || continue
		[ -z "$suites" ] || [[ " $suites " == *" ${BASH_REMATCH[2]%%/*} "* ]] || continue
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
	if [ -n "$plan" ] && [ ! -f "$plan" ]; then
		echo "No declared results: ${plan#"$REPO_DIR/"} is missing (tests/update-plan.sh writes it)"
		bad=1
	elif [ -n "$plan" ]; then
		while IFS=$'\t' read -r kind name; do
			[ -n "$name" ] || continue
			if [ "$kind" = 1 ]; then
				echo "Missing result (declared in ${plan#"$REPO_DIR/"}, never reported, or fewer times than declared): $name"
			else
				echo "Undeclared result (not in ${plan#"$REPO_DIR/"}, or more times than declared): $name"
			fi
			bad=1
		done < <(LC_ALL=C comm -3 <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$plan" | LC_ALL=C sort) \
			<("$REPO_DIR/tests/summary.sh" --names "$results") | sed 's/^\t/2\t/; /^2\t/! s/^/1\t/')
	fi
	[ $((pass + fail)) -gt 0 ] || { echo "No test ran."; bad=1; }
	echo "$pass passed, $fail failed ($xfail expected), $skip skipped ($xskip expected)"
	return "$bad"
}

# timed NAME CMD...: CMD, its wall and CPU time into CHECK_TIMES (make
# check's time table) when that is set.
timed() {
	if [ -n "${CHECK_TIMES:-}" ]; then
		"$REPO_DIR/tests/timed.sh" "$CHECK_TIMES" "$@"
	else
		shift
		"$@"
	fi
}

# run: the suites on $kernel; its summary, one line into OUT/summary, and
# (not with --check) its row of the table in OUT/NAME/row.csv.
run() {
	local dir root img start t boot release results=$out/$kernel.results rc=0 list=$kernel.suites
	[ -z "$check" ] || list=$kernel.check-suites
	[ -f "$conf/$list" ] && [ -f "$conf/$kernel.expect" ] ||
		die "no $conf/$list or $kernel.expect; the kernels: $("$REPO_DIR/vm/debian-kernel.sh" --names)"
	dir=$(timed "debian-$kernel/fetch" "$REPO_DIR/vm/debian-kernel.sh" "$kernel")
	root=$out/$kernel/guest-root
	rm -rf "$root" "$out/$kernel/row.csv" && mkdir -p "$out/$kernel" && cp -a "$staging" "$root"
	rm -f "$root$GUEST_PREFIX"/modules/*.ko
	t=$EPOCHREALTIME
	modules "$dir" "$root"
	[ -z "${CHECK_TIMES:-}" ] || awk -v n="debian-$kernel/modules" -v s="${t/,/.}" -v e="${EPOCHREALTIME/,/.}" \
		'BEGIN { printf "%s\t%.1f\t-\n", n, e - s }' >>"$CHECK_TIMES"
	img=$(MODULES_ROOT=$dir/guest-modules timed "debian-$kernel/initramfs" "$REPO_DIR/vm/initramfs.sh" "$root")
	suites=$(sed 's/#.*//' "$conf/$list" | xargs)
	log "$kernel: $(cat "$dir/release"); suites: $suites"
	start=$SECONDS
	: >"$results"
	timed "debian-$kernel/guest" "$REPO_DIR/vm/run.sh" --kernel "$dir/vmlinuz" --initramfs "$img" --timeout "${VM_TIMEOUT:-1800}" \
		--append "tmg.kernel=debian-$kernel" --channel "$results" -- \
		"echo BOOTED \$(cut -d' ' -f1 /proc/uptime) \$(uname -r -m) >/dev/ttyS1;" \
		"$GUEST_PREFIX/tests/run-guest-tests.sh $suites;" "$KERNEL_LOG_CMD" >"$out/$kernel.log" 2>&1 ||
		"$REPO_DIR/tests/result.sh" "debian-$kernel" fail guest-run \
			"the guest run failed (exit $?); see $out/$kernel.log" >>"$results"
	kernel_log_split "$out/$kernel.log" "$out/$kernel.dmesg" || true
	read -r boot release < <(sed -n 's/^BOOTED //p' "$results") || true
	verdict "$conf/$kernel.expect" "$results" "${check:+$suites}" ${check:+"$conf/$kernel.check-results"} >"$out/$kernel.summary" || rc=$?
	echo "== $kernel"
	cat "$out/$kernel.summary"
	echo "$kernel ($(cat "$dir/release")): $(tail -n 1 "$out/$kernel.summary"); boot ${boot:-?} s, run $((SECONDS - start)) s" >>"$out/summary"
	[ -n "$check" ] || matrix_row "debian-$kernel" "$dir/root/boot/config-$(cat "$dir/release")" "$release" "$suites" \
		"$(tail -n 1 "$out/$kernel.summary")" "$rc" "$boot" $((SECONDS - start)) "$commit" >"$out/$kernel/row.csv"
	return "$rc"
}

if [ "${1:-}" = --verdict ]; then
	[ $# -ge 3 ] && [ $# -le 5 ] && [ -f "$2" ] && [ -f "$3" ] || die "$usage"
	verdict "$2" "$3" "${4:-}" "${5:-}"
	exit
fi
check=''
[ "${1:-}" != --check ] || { check=1; shift; }
[ $# -ge 3 ] || die "$usage"
out=$1 staging=$2
shift 2
[ -d "$staging" ] || die "staging folder '$staging' does not exist; run 'make guest-root'"
conf=$REPO_DIR/tests/debian-kernels
GUEST_PREFIX=$(sed -n 's/^GUEST_PREFIX=//p' "$REPO_DIR/vm/guest.conf")
commit=$(matrix_commit)
mkdir -p "$out"
out=$(cd "$out" && pwd)
status=0
: >"$out/summary"
for kernel in "$@"; do
	set +e
	if [ -n "$check" ]; then
		(
			set -e
			run
		) >"$out/$kernel.out" 2>&1
	else
		(
			set -e
			run
		) 2>&1 | tee "$out/$kernel.out"
	fi
	rc=$?
	set -e
	if [ -z "$check" ]; then
		:
	elif [ "$rc" = 0 ]; then
		"$REPO_DIR/tests/result.sh" debian-guest pass "$kernel"
	else
		"$REPO_DIR/tests/result.sh" debian-guest fail "$kernel" \
			"$(grep -E '^(Unexpected|Expected, did not|Missing result|Undeclared result|No declared|No test)|error:' "$out/$kernel.out" | head -n 3); $(tail -n 1 "$out/$kernel.out"); see $out/$kernel.out"
	fi
	[ "$rc" = 0 ] || status=1
done
echo "Debian's kernels:"
sed 's/^/  /' "$out/summary"
if [ -z "$check" ]; then
	rows=()
	for kernel in "$@"; do
		[ ! -f "$out/$kernel/row.csv" ] || rows+=("$out/$kernel/row.csv")
	done
	[ ${#rows[@]} = 0 ] || { matrix_table "${rows[@]}" && echo "docs/matrix/results.csv written; review with git diff"; }
fi
exit "$status"
