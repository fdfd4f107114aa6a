#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-flaky: run the guest suites (check-vm) and the lab checks
# (check-labs) RUNS times while another process keeps every CPU busy (one
# "yes >/dev/null" per CPU), then name every result whose verdict changed
# between runs (PASS, FAIL, SKIP, or missing). Exits 1 when one did.
#   tests/check-flaky.sh RUNS   (env: MAKE, OUT_DIR, GUEST_ROOT, LAB_ROOT, as make sets them)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:?usage: tests/check-flaky.sh RUNS}
[ "$runs" -ge 2 ] 2>/dev/null || { echo "tests/check-flaky.sh: RUNS must be 2 or more, not '$runs'" >&2; exit 2; }
: "${MAKE:=make}" "${OUT_DIR:=_build}" "${GUEST_ROOT:=$OUT_DIR/guest-root}" "${LAB_ROOT:=$OUT_DIR/lab-root}"
dir=$OUT_DIR/flaky
rm -rf "$dir" && mkdir -p "$dir"
load=()
stop_load() { [ ${#load[@]} -eq 0 ] || kill "${load[@]}" 2>/dev/null || true; }
trap stop_load EXIT
for _ in $(seq "$(nproc)"); do
	yes >/dev/null &
	load+=($!)
done
echo "check-flaky: $runs runs of check-vm and check-labs, with ${#load[@]} busy-looping processes (yes) on $(nproc) CPUs"
for i in $(seq "$runs"); do
	start=$SECONDS
	# Each run looks the image up again (and so marks it used): builds in
	# other clones may prune images that sat unused for hours.
	"$MAKE" -s initramfs initramfs-lab
	initramfs=$(vm/initramfs.sh "$GUEST_ROOT")
	lab_initramfs=$(vm/initramfs.sh "$LAB_ROOT")
	"$MAKE" -s -k -j2 --output-sync=target CHECK_NEEDS= LAB_CHECK_NEEDS= CHECK_DIR="$dir/run-$i" \
		GUEST_INITRAMFS="$initramfs" LAB_INITRAMFS="$lab_initramfs" check-vm check-labs \
		>"$dir/run-$i.log" 2>&1 || echo "check-flaky: run $i: make exited $? (see $dir/run-$i.log)"
	echo "check-flaky: run $i: $(tests/summary.sh "$dir/run-$i"/{vm,labs}.results | tail -n 1) ($((SECONDS - start)) s)"
done
stop_load
# The verdict of every name in every run (NAME, RUN, VERDICT; tabs), then the names
# whose verdicts differ (a name missing from a run counts as "missing").
for i in $(seq "$runs"); do
	cat "$dir/run-$i"/{vm,labs}.results | tr -d '\r' |
		sed -nE "s/^(PASS|FAIL|SKIP): ([^:]*)(: .*)?$/\\2\t$i\t\\1/p"
done | awk -F'\t' -v runs="$runs" '
	{ key = $1 SUBSEP $2; if (key in v) v[key] = v[key] "+" $3; else v[key] = $3; names[$1] = 1 }
	END {
		for (n in names) {
			line = ""; first = ""; changed = 0
			for (i = 1; i <= runs; i++) {
				x = ((n SUBSEP i) in v) ? v[n SUBSEP i] : "missing"
				line = line " " x
				if (i == 1) first = x; else if (x != first) changed = 1
			}
			if (changed) print "  " n ":" line
		}
	}' | LC_ALL=C sort >"$dir/changed"
if [ -s "$dir/changed" ]; then
	echo "check-flaky: $(wc -l <"$dir/changed") results changed verdict over $runs runs (run 1 to run $runs):"
	cat "$dir/changed"
	exit 1
fi
echo "check-flaky: no result changed verdict over $runs runs"
