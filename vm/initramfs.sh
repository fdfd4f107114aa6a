#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the guest's base initramfs: busybox-static, vm/init and
# vm/guest.conf (as /etc/guest.conf), the kernel's modules and a staging
# folder of our own files (copied under /), redone only
# when a hash of those inputs changes (the image is named by that hash).
# Prints the path of the image. The image is not compressed: under TCG the
# kernel's gunzip of it cost more boot time than the larger file (12 boots
# of each, alternating, the same 26 MB image, 12.6 MB as gzip -1, with a
# load of 6 on two cores: 4.0 s against 4.8 s on average, faster in 11
# of the 12 pairs).
#   vm/initramfs.sh STAGING_DIR
# MODULES_ROOT=DIR in the environment: another kernel's modules instead of
# ours, DIR's lib/ and etc/ copied under / (vm/debian-kernel.sh's
# guest-modules: vm/init loads those etc/guest-modules lists).
# BUSYBOX=FILE: another busybox (a matrix kernel's architecture); its
# applets are listed by BUSYBOX_APPLETS=FILE (one that runs here, of the
# same Debian package) when it cannot run here. GEN_INIT_CPIO=FILE: that
# kernel build's gen_init_cpio instead of ours.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BUSYBOX=${BUSYBOX:-/bin/busybox}
GEN_INIT_CPIO=${GEN_INIT_CPIO:-$BUILD_DIR/usr/gen_init_cpio}

# cpio_list ROOT: gen_init_cpio lines for every folder, file and link below ROOT.
cpio_list() {
	local root=$1 path rel mode
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort) | while IFS= read -r path; do
		rel=${path#.}
		mode=$(stat -c %a "$root/$path")
		if [ -L "$root/$path" ]; then
			echo "slink $rel $(readlink "$root/$path") 0777 0 0"
		elif [ -d "$root/$path" ]; then
			echo "dir $rel $mode 0 0"
		else
			echo "file $rel $root/$path $mode 0 0"
		fi
	done
}

# image STAGING_DIR: the path of the image for these inputs, built or not
# (one image per key, so builds from several work trees do not clash). With
# MODULES_ROOT (another kernel's modules, vm/debian-kernel.sh), the key is
# that folder's instead of our kernel's.
image() {
	local staging=$1 kernel_key
	[ -d "$staging" ] || die "staging folder '$staging' does not exist"
	[ -x "$BUSYBOX" ] || die "$BUSYBOX is missing; run 'make deps' (package busybox-static)"
	[ -x "$GEN_INIT_CPIO" ] || die "$GEN_INIT_CPIO is missing; run 'make kernel'"
	if [ -n "${MODULES_ROOT:-}" ]; then
		[ -d "$MODULES_ROOT" ] || die "MODULES_ROOT '$MODULES_ROOT' is not a folder"
		kernel_key=modules-$(hash_tree "$MODULES_ROOT")
	else
		kernel_key=$(stage_key "kernel$VARIANT")
	fi
	echo "$INITRAMFS_DIR/initramfs-$(hash_of "$kernel_key" "$BUSYBOX" "$REPO_DIR/vm/init" "$REPO_DIR/vm/guest.conf" "$0" "$(hash_tree "$staging")").cpio"
}

build() {
	local staging=$1 key list applet out
	out=$(image "$staging")
	if [ -f "$out" ]; then
		touch "$out"
		echo "$out"
		return 0
	fi
	key=${out##*/initramfs-}
	key=${key%.cpio}
	mkdir -p "$INITRAMFS_DIR"
	list=$INITRAMFS_DIR/$key.list.$$
	{
		for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /mnt /mnt/share /root /etc /opt /lib /run; do
			echo "dir $d 0755 0 0"
		done
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "file /bin/busybox $BUSYBOX 0755 0 0"
		"${BUSYBOX_APPLETS:-$BUSYBOX}" --list-full | while read -r applet; do
			[ "/$applet" = /bin/busybox ] || echo "slink /$applet /bin/busybox 0777 0 0"
		done
		echo "file /init $REPO_DIR/vm/init 0755 0 0"
		echo "file /etc/guest.conf $REPO_DIR/vm/guest.conf 0644 0 0"
		if [ -n "${MODULES_ROOT:-}" ]; then
			cpio_list "$MODULES_ROOT" | { grep -v -E '^dir /(lib|etc) ' || true; }
		elif [ -d "$MODULES_DIR/lib" ]; then
			cpio_list "$MODULES_DIR/lib" | sed 's#^\(dir\|file\|slink\) #&/lib#'
		fi
		cpio_list "$staging" | { grep -v -E '^dir /(opt|run|root|etc) ' || true; }
	} >"$list"
	"$GEN_INIT_CPIO" "$list" >"$out.$$.tmp"
	mv "$out.$$.tmp" "$out"
	rm -f "$list"
	log "initramfs: $(du -h "$out" | cut -f1) written to $out"
	prune
	echo "$out"
}

# prune: keep the eight most recently used images (gzip ones of before too)
# and any used in the last two hours: a long run in another clone (make
# check-flaky) may still boot an older one. Another clone may prune at
# the same time: an image gone already is no error.
prune() {
	local image
	find "$INITRAMFS_DIR" -maxdepth 1 \( -name 'initramfs-*.cpio' -o -name 'initramfs-*.cpio.gz' \) \
		-printf '%T@ %p\n' | sort -rn | tail -n +9 | cut -d' ' -f2- |
		while IFS= read -r image; do
			find "$image" -maxdepth 0 -mmin +120 -delete 2>/dev/null || true
		done
}

# An image already built is used without waiting on the cache lock (a
# kernel build may hold it for minutes): make lab-check only reads it.
out=$(image "${1:?usage: vm/initramfs.sh STAGING_DIR}")
if [ -f "$out" ]; then
	touch "$out"
	echo "$out"
	exit 0
fi
# Another kernel's image (MODULES_ROOT) needs nothing of our kernel's
# build, so it does not wait for that build's lock (its files are named by
# process until they are complete).
if [ -n "${MODULES_ROOT:-}" ]; then
	build "$@"
else
	with_lock build "$@"
fi
