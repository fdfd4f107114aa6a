#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host half of "make bench-compare" (issue 25 item 3): the cost model
# (tests/vm/bench-run.sh, its cost part) and one GET_READER's cost
# (tests/vm/get_reader_cost.c) on the walking kernel (vm/walking-kernel.sh:
# the series without 0007 and 0008) and on the patched one (make kernel),
# in REPS rounds. A round boots each kernel once and runs both programs
# in it; the order of the two kernels swaps every round (walking first in
# odd rounds), so that a load that drifts on the shared host falls on
# both columns alike.
#   compare.sh OUT_DIR INITRAMFS REPS SIZES GET_READER_REPS
# OUT_DIR/KERNEL/ (KERNEL: walking, patched) gets guest.txt (every round's
# bench-run.sh lines, each round's header first), get-reader.txt (each
# round's get_reader_cost lines after a "round=R" line) and the consoles
# (console-R.log). A failed boot or program fails the whole run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../vm/lib.sh"
source "$REPO_DIR/vm/guest.conf"

[ $# = 5 ] || die "usage: compare.sh OUT_DIR INITRAMFS REPS SIZES GET_READER_REPS"
out=$1 initramfs=$2 reps=$3 sizes=$4 gr_reps=$5
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "REPS '$reps' is not a positive number"
[[ $gr_reps =~ ^[1-9][0-9]*$ ]] || die "GET_READER_REPS '$gr_reps' is not a positive number"
[ -n "$sizes" ] || die "SIZES is empty"
[ -f "$initramfs" ] || die "initramfs '$initramfs' not found"

declare -A image
image[patched]=$("$REPO_DIR/vm/kernel.sh" --print-var BUILD_DIR)/arch/x86/boot/bzImage
image[walking]=$("$REPO_DIR/vm/walking-kernel.sh")
for k in walking patched; do
	[ -f "${image[$k]}" ] || die "the $k kernel ${image[$k]} is missing"
	rm -rf "${out:?}/$k" && mkdir -p "$out/$k"
	: >"$out/$k/guest.txt"
	: >"$out/$k/get-reader.txt"
done

# one KERNEL ROUND: boot it, run the cost model's repetition ROUND and
# get_reader_cost, and append their lines to the kernel's files.
one() {
	local k=$1 r=$2 dir=$out/$1 start=$SECONDS
	local cmd="sh $GUEST_PREFIX/tests/bench-run.sh /mnt/share/guest-$r.txt 1 '$sizes' '' $r &&
taskset -c 0 $GUEST_PREFIX/bin/get_reader_cost $gr_reps >/mnt/share/get-reader-$r.txt"
	log "round $r of $reps: the $k kernel"
	"$REPO_DIR/vm/run.sh" --kernel "${image[$k]}" --initramfs "$initramfs" \
		--timeout "${VM_TIMEOUT:-900}" --share "$dir" -- "$cmd" \
		>"$dir/console-$r.log" 2>&1 ||
		die "round $r on the $k kernel failed; see $dir/console-$r.log"
	{
		echo "# $k kernel: ${image[$k]##"$CACHE_DIR"/} sha256 $(sha256sum <"${image[$k]}" | cut -c1-16), round $r"
		cat "$dir/guest-$r.txt"
	} >>"$dir/guest.txt"
	{
		echo "round=$r"
		cat "$dir/get-reader-$r.txt"
	} >>"$dir/get-reader.txt"
	rm -f "$dir/guest-$r.txt" "$dir/get-reader-$r.txt"
	log "round $r on the $k kernel: $((SECONDS - start)) s"
}

for ((r = 1; r <= reps; r++)); do
	if ((r % 2)); then order='walking patched'; else order='patched walking'; fi
	for k in $order; do
		one "$k" "$r"
	done
done
