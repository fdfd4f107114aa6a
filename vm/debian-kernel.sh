#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One of Debian's own x86-64 kernel images, for the guest: the newest
# package of that flavour (apt-cache), downloaded with apt-get download and
# unpacked with dpkg-deb -x into the cache, in a folder named by package and
# version (reused when it is there; nothing is installed, /boot is not
# touched). Its guest modules (what vm/init loads: virtio-pci where it is a
# module, 9p for --share) are decompressed into guest-modules/ beside it,
# with etc/guest-modules listing them in load order. Its headers package,
# with the -common and kbuild packages it needs, is unpacked the same way
# into linux-headers-RELEASE_VERSION/root (to build our modules for it). Prints
# the folder.
#   vm/debian-kernel.sh NAME        NAME: 6.12, 6.12-rt or 6.1
#   vm/debian-kernel.sh --names     the names it knows
# The folder holds: vmlinuz (a link to the image), release (uname -r),
# guest-modules/ (for vm/initramfs.sh's MODULES_ROOT) and build (a link to
# the headers' kbuild folder: make -C build M=... modules).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DEBIAN_DIR=$CACHE_DIR/debian-kernels
NAMES='6.12 6.12-rt 6.1'
# The modules vm/init needs, with what they need (from modules.dep); those
# built into a kernel are left out.
WANTED='virtio_pci 9pnet_virtio 9p'

[ $# = 1 ] || die "usage: vm/debian-kernel.sh NAME (one of: $NAMES) | --names"
[ "$1" != --names ] || { echo "$NAMES"; exit 0; }
name=$1
case $1 in
6.12) pattern='^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64-unsigned$' ;;
6.12-rt) pattern='^linux-image-6\.12\.[0-9]+\+deb[0-9]+-rt-amd64-unsigned$' ;;
6.1) pattern='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
*) die "unknown kernel '$1'; the names: $NAMES" ;;
esac

# The newest package of the flavour and its candidate version, from apt's
# lists; without them (apt-get update never ran, no network), the newest
# one already in the cache. The answer is kept (.newest-NAME) with a key
# of apt's lists (names, sizes, times): apt-cache reads them all each time
# where the host keeps no pkgcache.bin (Debian's container images), 10-20 s
# under load, and a warm run asks again only after apt-get update.
newest() {
	local pkg ver key memo=$DEBIAN_DIR/.newest-$name
	key=$({ echo "$pattern"; stat -c '%n %s %Y' /var/lib/apt/lists/*_Packages* 2>/dev/null; } | sha256sum | cut -c1-16)
	if [ -f "$memo" ] && read -r pkg ver <"$memo" && [ "$pkg" = "$key" ] && [ -d "$DEBIAN_DIR/$ver/root/boot" ]; then
		echo "$ver"
		return
	fi
	pkg=$(apt-cache pkgnames linux-image-6. 2>/dev/null | grep -E "$pattern" | sort -V | tail -n 1) || true
	if [ -n "$pkg" ]; then
		ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
		[ -n "$ver" ] && [ "$ver" != '(none)' ] && { echo "$key ${pkg}_$ver" >"$memo"; echo "${pkg}_$ver"; return; }
	fi
	for pkg in "$DEBIAN_DIR"/linux-image-*_*/root/boot; do
		pkg=${pkg%/root/boot}
		pkg=${pkg##*/}
		[[ ${pkg%%_*} =~ $pattern ]] && echo "$pkg"
	done | sort -V | tail -n 1 | grep . ||
		die "no package matches $pattern: run 'apt-get update' (Debian 12 with bookworm-updates)"
}

# unpack TARGET PACKAGE=VERSION...: download the packages and unpack them
# all into TARGET/root (TARGET replaced only once all are there).
unpack() {
	local target=$1 tmp deb err
	shift
	log "downloading $* (each 10-110 MB)"
	tmp=$(mktemp -d "$DEBIAN_DIR/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# apt's own lines go to a log: on failure (most often no network), one
	# line says what could not be fetched and apt's first error.
	if ! (cd "$tmp" && apt-get download -q "$@") >"$tmp/apt.log" 2>&1; then
		err=$(grep -m 1 '^E: ' "$tmp/apt.log" | cut -c 4-) || true
		die "cannot download $* (no network? the cache has no copy of this version): ${err:-apt-get download failed}"
	fi
	mkdir -p "$tmp/out/root"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/out/root"
	done
	cat "$tmp"/*.deb | wc -c >"$tmp/out/download-bytes"
	rm -rf "$target"
	mv "$tmp/out" "$target"
	rm -rf "$tmp"
	trap - EXIT
}

# fetch DIR: the image package DIR names, in DIR/root.
fetch() {
	[ -d "$DEBIAN_DIR/$1/root/boot" ] || unpack "$DEBIAN_DIR/$1" "${1%%_*}=${1#*_}"
}

# candidate PACKAGE -> PACKAGE=VERSION, the version apt would take.
candidate() {
	local ver
	ver=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != '(none)' ] || die "apt knows no package $1: run 'apt-get update'"
	echo "$1=$ver"
}

# headers DIR RELEASE: linux-headers-RELEASE (of the image's version) and
# the linux-headers-*-common and linux-kbuild-* packages it depends on,
# unpacked together into a folder of their own beside the image's; their
# Makefile's "include /usr/src/..." made to point there; DIR/build links to
# the kbuild folder.
headers() {
	local dir=$1 release=$2 ver=${1##*_} target pkgs dep
	target=$DEBIAN_DIR/linux-headers-${release}_$ver
	if [ ! -d "$target/root/usr/src/linux-headers-$release" ]; then
		pkgs=("linux-headers-$release=$ver")
		for dep in $(apt-cache depends "linux-headers-$release" |
			sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers\|kbuild\)-.*\)/\1/p'); do
			pkgs+=("$(candidate "$dep")")
		done
		unpack "$target" "${pkgs[@]}"
	fi
	sed -i "s#^include /usr/src/#include $target/root/usr/src/#" "$target"/root/usr/src/*/Makefile
	ln -sfn "$target/root/usr/src/linux-headers-$release" "$dir/build"
}

# load_order MODDIR MODULE...: the modules' files (relative to MODDIR),
# each after the ones it needs, each once; built-in ones left out.
load_order() {
	local moddir=$1
	shift
	awk -v wanted="$*" '
		FILENAME ~ /modules.builtin$/ { builtin[name($1)] = 1; next }
		{ sub(/:$/, "", $1); m = name($1); file[m] = $1; deps[m] = ""
		  for (i = 2; i <= NF; i++) deps[m] = deps[m] " " name($i) }
		function name(path,  n) { n = path; sub(/.*\//, "", n); sub(/\.ko(\.[gx]z|\.zst)?$/, "", n)
			gsub(/-/, "_", n); return n }
		function load(m,  d, n, i) {
			if (m in done) return
			done[m] = 1
			if (m in builtin) return
			if (!(m in file)) { print "no module " m > "/dev/stderr"; exit 1 }
			n = split(deps[m], d, " ")
			for (i = n; i >= 1; i--) load(d[i])
			print file[m]
		}
		END { n = split(wanted, w, " "); for (i = 1; i <= n; i++) load(w[i]) }
	' "$moddir/modules.builtin" "$moddir/modules.dep"
}

# guest_modules DIR: DIR/guest-modules with the wanted modules, decompressed.
guest_modules() {
	local dir=$1 release moddir out f
	release=$(cat "$dir/release")
	moddir=$dir/root/lib/modules/$release
	out=$dir/guest-modules
	[ -f "$out/etc/guest-modules" ] && return 0
	# The package has no modules.dep: its postinst runs depmod.
	[ -f "$moddir/modules.dep" ] || /sbin/depmod -b "$dir/root" "$release" ||
		die "depmod of $release failed"
	rm -rf "$out.tmp" && mkdir -p "$out.tmp/etc"
	# shellcheck disable=SC2086 # one word a module
	load_order "$moddir" $WANTED >"$out.tmp/order" || die "modules.dep of $release lacks a module vm/init needs"
	while IFS= read -r f; do
		mkdir -p "$out.tmp/lib/modules/$release/$(dirname "$f")"
		case $f in
		*.xz) xz -dc "$moddir/$f" >"$out.tmp/lib/modules/$release/${f%.xz}" ;;
		*.ko) cp "$moddir/$f" "$out.tmp/lib/modules/$release/$f" ;;
		*) die "$f: a compression busybox insmod cannot read and this script does not undo" ;;
		esac
		echo "/lib/modules/$release/${f%.xz}" >>"$out.tmp/etc/guest-modules"
	done <"$out.tmp/order"
	touch "$out.tmp/etc/guest-modules"
	rm "$out.tmp/order"
	rm -rf "$out" && mv "$out.tmp" "$out"
}

prepare() {
	local dir image
	mkdir -p "$DEBIAN_DIR"
	dir=$(newest)
	fetch "$dir"
	dir=$DEBIAN_DIR/$dir
	image=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$image" ] || die "$dir has no boot/vmlinuz-*"
	basename "$image" | sed 's/^vmlinuz-//' >"$dir/release"
	ln -sfn "root/boot/${image##*/}" "$dir/vmlinuz"
	guest_modules "$dir"
	headers "$dir" "$(cat "$dir/release")"
	echo "$dir"
}

# The cache's lock is the kernel build's; this folder has its own.
mkdir -p "$DEBIAN_DIR"
exec 9>"$DEBIAN_DIR/.lock"
flock 9
prepare
