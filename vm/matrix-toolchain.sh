#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cross toolchain and busybox-static of one matrix architecture (issue
# 23 item 2), from Debian's packages: downloaded with apt-get download and
# unpacked with dpkg-deb -x into the cache, never installed (installing
# gcc-aarch64-linux-gnu would remove gcc-multilib, which the -m32 builds
# need). The folder is named by a hash of the packages and their versions
# and reused while that holds; MATRIX/toolchain/ARCH links to it, so
# that the path a kernel build records stays the same. Prints that link,
# a folder which has
# usr/bin/CROSS-gcc (and CROSS-gcc, -ld, ... links) and busybox (static,
# of that architecture).
#   vm/matrix-toolchain.sh ARCH     ARCH: arm64, i386, s390 (s390x) or
#                                   x86_64 (the host's gcc and busybox-static,
#                                   nothing downloaded: a variant of our kernel)
#   vm/matrix-toolchain.sh --cross ARCH   print the CROSS_COMPILE prefix
# arm64 needs its architecture in dpkg (dpkg --add-architecture arm64;
# apt-get update) for busybox-static:arm64; i386 uses the host's gcc -m32
# (gcc-multilib) and needs only busybox-static:i386; s390 (the kernel's
# name) is dpkg's s390x, added the same way.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MATRIX_DIR=$CACHE_DIR/matrix
case ${1:-} in
--cross)
	case ${2:-} in
	arm64) echo aarch64-linux-gnu- ;;
	i386) echo '' ;;
	s390) echo s390x-linux-gnu- ;;
	x86_64) echo '' ;;
	*) die "--cross: unknown architecture '${2:-}' (arm64, i386, s390 or x86_64)" ;;
	esac
	exit 0
	;;
arm64)
	# gcc-12 for aarch64 and what it needs that the host's gcc does not
	# bring (apt-cache depends gcc-12-aarch64-linux-gnu).
	pkgs=(binutils-aarch64-linux-gnu cpp-12-aarch64-linux-gnu gcc-12-aarch64-linux-gnu
		gcc-12-aarch64-linux-gnu-base gcc-12-cross-base libgcc-12-dev-arm64-cross
		libgcc-s1-arm64-cross libgomp1-arm64-cross libitm1-arm64-cross libatomic1-arm64-cross
		libasan8-arm64-cross liblsan0-arm64-cross libtsan2-arm64-cross libubsan1-arm64-cross
		libhwasan0-arm64-cross libc6-arm64-cross libc6-dev-arm64-cross linux-libc-dev-arm64-cross
		busybox-static:arm64)
	triplet=aarch64-linux-gnu
	;;
i386)
	pkgs=(busybox-static:i386)
	triplet=''
	;;
s390)
	# The same for s390x (the kernel's ARCH is s390, Debian's s390x).
	pkgs=(binutils-s390x-linux-gnu cpp-12-s390x-linux-gnu gcc-12-s390x-linux-gnu
		gcc-12-s390x-linux-gnu-base gcc-12-cross-base libgcc-12-dev-s390x-cross
		libgcc-s1-s390x-cross libgomp1-s390x-cross libitm1-s390x-cross libatomic1-s390x-cross
		libasan8-s390x-cross libubsan1-s390x-cross libc6-s390x-cross libc6-dev-s390x-cross
		linux-libc-dev-s390x-cross busybox-static:s390x)
	triplet=s390x-linux-gnu
	;;
x86_64)
	# The host's own: the folder holds its busybox-static (the one the
	# main guest boots) and that package's version.
	dir=$MATRIX_DIR/toolchain/x86_64
	[ -x /bin/busybox ] || die "/bin/busybox is missing; run 'make deps' (package busybox-static)"
	mkdir -p "$dir"
	cmp -s /bin/busybox "$dir/busybox" || cp /bin/busybox "$dir/busybox"
	dpkg-query -W busybox-static >"$dir/packages.tmp" && mv "$dir/packages.tmp" "$dir/packages"
	echo "$dir"
	exit 0
	;;
*) die "usage: vm/matrix-toolchain.sh arm64|i386|s390|x86_64 | --cross ARCH" ;;
esac
arch=$1
# dpkg's name of the architecture (busybox-static:ARCH).
dpkg_arch=$arch
[ "$arch" != s390 ] || dpkg_arch=s390x

# busybox-static:ARCH needs ARCH among dpkg's architectures: added (as
# root, with an apt-get update) when it is not.
if [[ $'\n'$(dpkg --print-foreign-architectures)$'\n' != *$'\n'$dpkg_arch$'\n'* ]]; then
	[ "$(id -u)" = 0 ] || die "dpkg does not know the $dpkg_arch architecture; run: sudo dpkg --add-architecture $dpkg_arch && sudo apt-get update"
	log "adding the $dpkg_arch architecture to dpkg (dpkg --add-architecture $dpkg_arch; apt-get update)"
	dpkg --add-architecture "$dpkg_arch"
	apt-get update -qq
fi

# versions: PACKAGE=VERSION for each, the version apt would take (one
# apt-cache call: each loads apt's cache, seconds on a busy machine).
versions() {
	local p ver policy
	policy=$(apt-cache policy "${pkgs[@]}" 2>/dev/null)
	for p in "${pkgs[@]}"; do
		ver=$(awk -v p="$p:" '
			/^[^ ]/ { on = ($1 == p) }
			on && $1 == "Candidate:" { print $2; exit }' <<<"$policy")
		[ -n "$ver" ] && [ "$ver" != '(none)' ] ||
			die "apt knows no package $p: run 'dpkg --add-architecture ${p#*:}' (for :ARCH packages) and 'apt-get update'"
		echo "$p=$ver"
	done
}

mapfile -t want < <(versions)
# LAYOUT: how this script lays the folder out (the wrappers); raise it
# when that changes.
LAYOUT=1
key=$(hash_of "$arch" "layout $LAYOUT" "${want[@]}")
dir=$MATRIX_DIR/toolchain/$arch-$key
link=$MATRIX_DIR/toolchain/$arch
if [ -f "$dir/done" ] && [ "$(readlink "$link")" = "${dir##*/}" ]; then
	echo "$link"
	exit 0
fi
mkdir -p "$MATRIX_DIR/toolchain"
exec 9>"$MATRIX_DIR/toolchain/.lock"
flock 9
if [ ! -f "$dir/done" ]; then
	log "$arch: downloading ${#want[@]} Debian packages (apt-get download; nothing is installed)"
	tmp=$(mktemp -d "$MATRIX_DIR/toolchain/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# (apt's notice that root downloads unsandboxed is dropped.)
	(cd "$tmp" && apt-get download -q "${want[@]}" 2>&1 >/dev/null | { grep -v 'unsandboxed' || true; } >&2) || die "apt-get download ${want[*]} failed"
	mkdir -p "$tmp/out"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/out"
	done
	cp "$tmp/out/bin/busybox" "$tmp/out/busybox"
	if [ -n "$triplet" ]; then
		# The unversioned names (gcc-aarch64-linux-gnu's links, the
		# package that would conflict with gcc-multilib if installed).
		for tool in gcc cpp; do
			ln -sfn "$triplet-$tool-12" "$tmp/out/usr/bin/$triplet-$tool"
		done
		# binutils' programs load libbfd/libopcodes of their target from
		# the host's library folder: a wrapper points them at ours.
		mkdir -p "$tmp/out/usr/libexec/matrix"
		for tool in "$tmp"/out/usr/bin/"$triplet"-*; do
			[ ! -L "$tool" ] || continue
			[[ $(LD_LIBRARY_PATH='' ldd "$tool" 2>&1 || true) == *'not found'* ]] || continue
			mv "$tool" "$tmp/out/usr/libexec/matrix/"
			printf '%s\n' '#!/bin/sh' \
				'd=$(dirname "$(readlink -f "$0")")/..' \
				"LD_LIBRARY_PATH=\$d/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} exec \"\$d/libexec/matrix/${tool##*/}\" \"\$@\"" \
				>"$tool"
			chmod 0755 "$tool"
		done
	fi
	printf '%s\n' "${want[@]}" >"$tmp/out/packages"
	touch "$tmp/out/done"
	rm -rf "$dir"
	mv "$tmp/out" "$dir"
	rm -rf "$tmp"
	trap - EXIT
	log "$arch: toolchain in $dir"
fi
ln -sfn "${dir##*/}" "$link.tmp" && mv -T "$link.tmp" "$link"
echo "$link"
