#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# vm/initramfs.sh's cache of images: a new image is built and its path
# printed with exit status 0, whatever the folder held before (none of the
# old gzip images left once pruned: that made every new build exit 2 after
# writing it); the eight most recently used images and any used in the last
# two hours are kept, older ones beyond those removed.
. tests/host/lib.sh
images=$WORK_DIR/images
mkdir -p "$images" "$WORK_DIR/root"

# build NAME: a new image in $images (the staging folder changed each time)
build() {
	local out rc=0
	echo "$1" >"$WORK_DIR/root/name"
	out=$(INITRAMFS_DIR=$images vm/initramfs.sh "$WORK_DIR/root" 2>"$WORK_DIR/$1.log") || rc=$?
	expect_eq "$1/exit" "0 $images" "$rc $(dirname "${out:-none}")$([ "$rc" = 0 ] || echo ": $(tail -n 1 "$WORK_DIR/$1.log")")"
	expect_eq "$1/printed-image-exists" yes "$([ -n "$out" ] && [ -s "$out" ] && echo yes || echo no)"
}

# An empty folder: no image, no gzip image.
build first-in-empty-folder

# Eleven images unused for three hours or more (one a gzip image) and one
# used an hour ago: the eight newest stay (the two built here, the one of
# an hour ago, old0 to old4); of the others, all unused for two hours, none.
for i in 0 1 2 3 4 5 6 7 8; do
	touch -d "-$((180 + i)) minutes" "$images/initramfs-old$i.cpio"
done
touch -d '-189 minutes' "$images/initramfs-old9.cpio.gz"
touch -d '-200 minutes' "$images/initramfs-oldest.cpio"
touch -d '-60 minutes' "$images/initramfs-hour.cpio"
build with-old-images
kept=$(cd "$images" && ls initramfs-* | grep -E 'old|hour' | LC_ALL=C sort | xargs)
expect_eq pruned-beyond-eight-and-two-hours \
	"initramfs-hour.cpio initramfs-old0.cpio initramfs-old1.cpio initramfs-old2.cpio initramfs-old3.cpio initramfs-old4.cpio" \
	"$kept"

# vm/image-fresh.sh, make lab-check's shortcut: the image the record names
# is current only while it exists and no stamp or staged source is newer
# than the record; the learner's labs/work does not count.
cache=$WORK_DIR/cache record=$WORK_DIR/initramfs.image
mkdir -p "$cache/stamps"
touch "$cache/stamps/kernel" "$cache/stamps/headers" "$images/current.cpio"
echo "$images/current.cpio" >"$record"
fresh() { CACHE_DIR=$cache vm/image-fresh.sh "$record" && echo current || echo stale; }
touch -d '+10 minutes' "$record"
expect_eq image-fresh/nothing-newer current "$(fresh)"
made_work=$([ -d labs/work ] || echo yes)
mkdir -p labs/work
learner=$(mktemp -d labs/work/image-fresh-test.XXXXXX)
touch -d '+20 minutes' "$learner/file.c"
expect_eq image-fresh/learner-copy-ignored current "$(fresh)"
rm -rf "$learner"
[ -z "$made_work" ] || rmdir labs/work 2>/dev/null || true
touch -d '+20 minutes' "$cache/stamps/kernel"
expect_eq image-fresh/kernel-rebuilt stale "$(fresh)"
touch -d '-10 minutes' "$cache/stamps/kernel" "$record"
expect_eq image-fresh/source-newer stale "$(fresh)"
touch -d '+10 minutes' "$record"
rm "$images/current.cpio"
expect_eq image-fresh/image-gone stale "$(fresh)"
rm "$record"
expect_eq image-fresh/no-record stale "$(fresh)"
