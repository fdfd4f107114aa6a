#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Is the initramfs the last 'make initramfs' built still current? True when
# RECORD (the file the initramfs target writes: the image's path) names an
# image that exists and nothing the image is made from is newer than RECORD:
# the kernel's stamps, busybox, and the repository's files that vm/guest.mk
# stages (labs/work, the learner's copies, excepted: the checks read those
# through the share). A deleted file changes its folder's time, so it counts.
# make lab-check uses it to skip the up-to-date checks of 'make
# initramfs-lab' (1.6 to 1.9 s on an idle machine, 6 December 2026): one
# find, a few milliseconds.
#   vm/image-fresh.sh RECORD
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# = 1 ] || die "usage: vm/image-fresh.sh RECORD"
record=$1
[ -f "$record" ] || exit 1
image=$(cat "$record")
[ -n "$image" ] && [ -f "$image" ] || exit 1
for stamp in "$STAMP_DIR/kernel" "$STAMP_DIR/headers" /bin/busybox; do
	[ -e "$stamp" ] && [ ! "$stamp" -nt "$record" ] || exit 1
done
cd "$REPO_DIR"
newer=$(find examples tests/vm tests/results.sh docs/transcripts labs vm kernel-patches \
	Makefile -path labs/work -prune -o -newer "$record" -print -quit)
[ -z "$newer" ]
