#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A matrix guest kernel (issue 23 item 2): the patched tree of vm/kernel.sh
# (Debian's linux-source-6.12 with kernel-patches/) cross-built for
# another architecture with Debian's cross compiler (vm/matrix-toolchain.sh),
# configured as tinyconfig + vm/kernel.config + vm/matrix/NAME.config, in
# its own folder of the cache, redone only when a hash of those inputs
# changes. Every build runs under nice -n 19. Prints the folder, which has
# image (the kernel to boot), build/ (for M= module builds), headers/ (its
# uapi headers), modules/ (modules_install) and toolchain (a link).
# A fragment with a "# matrix-patch: FILE" line (a path in the project)
# builds a variant: its own tree, kernel-patches/ and then FILE applied
# to its own unpacked copy by vm/kernel.sh (CACHE_DIR=FOLDER/cache,
# SERIES_DIR=FOLDER/series), never the main cache's tree; FILE is not
# part of kernel-patches/series (vm/variants/).
#   vm/matrix-kernel.sh NAME          NAME: a vm/matrix/NAME.config
#   vm/matrix-kernel.sh --names       the names
#   vm/matrix-kernel.sh --make NAME   print the make command line for
#                                     this kernel (ARCH, CROSS_COMPILE, O)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MATRIX_DIR=$CACHE_DIR/matrix
CONF_DIR=$REPO_DIR/vm/matrix
names() { (cd "$CONF_DIR" && ls ./*.config) | sed 's|^\./||; s|\.config$||' | xargs; }

print_make=0
case ${1:-} in
--names) names; exit 0 ;;
--make) print_make=1; shift ;;
esac
name=${1:?usage: vm/matrix-kernel.sh NAME | --names | --make NAME}
fragment=$CONF_DIR/$name.config
[ -f "$fragment" ] || die "unknown matrix kernel '$name'; the names: $(names)"
arch=$(sed -n 's/^# matrix-arch: //p' "$fragment")
not_here=$(sed -n 's/^# matrix-not-here: //p' "$fragment")
extra_patch=$(sed -n 's/^# matrix-patch: //p' "$fragment")
case $arch in
x86_64) image_path=arch/x86/boot/bzImage target=bzImage ;;
arm64) image_path=arch/arm64/boot/Image target=Image ;;
i386) image_path=arch/x86/boot/bzImage target=bzImage ;;
s390) image_path=arch/s390/boot/bzImage target=bzImage ;;
*) die "$fragment: no '# matrix-arch: arm64|i386|s390|x86_64' line" ;;
esac
dir=$MATRIX_DIR/$name
patch_stamp=$STAMP_DIR/patch
if [ -n "$extra_patch" ]; then
	[ -f "$REPO_DIR/$extra_patch" ] || die "$fragment: the matrix-patch '$extra_patch' does not exist"
	TREE_DIR=$dir/cache/linux
	patch_stamp=$dir/cache/stamps/patch
fi
toolchain=$("$REPO_DIR/vm/matrix-toolchain.sh" "$arch")
cross=$("$REPO_DIR/vm/matrix-toolchain.sh" --cross "$arch")
KMAKE=(nice -n 19 make -C "$TREE_DIR" O="$dir/build" ARCH="$arch" -j"$JOBS")
[ -z "$cross" ] || KMAKE+=(CROSS_COMPILE="$toolchain/usr/bin/$cross")
unset MAKEFLAGS MFLAGS MAKELEVEL

# check_config: every CONFIG_ line of vm/kernel.config (but those the
# fragment names as not on this architecture) and of the fragment has
# its value in .config.
check_config() {
	local line sym want got bad=()
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} want=${line#*=} ;;
		"# CONFIG_"*" is not set") sym=${line#\# } sym=${sym%% *} want=n ;;
		*) continue ;;
		esac
		[[ " $not_here " != *" $sym "* ]] || continue
		got=$(grep -E "^$sym=|^# $sym is not set" "$dir/build/.config" || true)
		case $got in
		"$sym="*) got=${got#*=} ;;
		*) got=n ;;
		esac
		# The fragment's own value wins over vm/kernel.config's.
		if [ "$(grep -cE "^$sym=|^# $sym is not set" "$fragment")" -gt 0 ] &&
			[ "$line" != "$(grep -E "^$sym=|^# $sym is not set" "$fragment" | tail -n 1)" ]; then
			continue
		fi
		[ "$got" = "$want" ] || bad+=("$sym: wanted $want, got $got")
	done < <(cat "$REPO_DIR/vm/kernel.config" "$fragment")
	if [ ${#bad[@]} -gt 0 ]; then
		printf '  %s\n' "${bad[@]}" >&2
		die "$name: the configuration lacks ${#bad[@]} symbol(s) (above)"
	fi
}

# variant_tree: with a matrix-patch, the series and that patch copied to
# FOLDER/series and applied to FOLDER/cache/linux by vm/kernel.sh (its
# unpack and patch stages, redone when the patches change).
variant_tree() {
	local series=$dir/series
	rm -rf "$series" && mkdir -p "$series"
	while read -r p; do
		cp "$REPO_DIR/kernel-patches/$p" "$series/"
	done < <("$REPO_DIR/vm/kernel.sh" --series)
	cp "$REPO_DIR/$extra_patch" "$series/"
	{
		cat "$REPO_DIR/kernel-patches/series"
		echo "${extra_patch##*/}"
	} >"$series/series"
	CACHE_DIR=$dir/cache SERIES_DIR=$series nice -n 19 "$REPO_DIR/vm/kernel.sh" patch >&2
}

build() {
	local key
	[ -z "$extra_patch" ] || variant_tree
	[ -f "$patch_stamp" ] || die "the tree of $name has not been patched; run 'make kernel'"
	key=$(hash_of "$(cat "$patch_stamp")" "$REPO_DIR/vm/kernel.config" "$fragment" "$0" "$toolchain/packages")
	[ "$(cat "$dir/stamp" 2>/dev/null)" != "$key" ] || return 0
	rm -f "$dir/stamp"
	mkdir -p "$dir/build" "$LOG_DIR"
	log "$name: configuring (tinyconfig + kernel.config + ${fragment##*/})"
	{
		"${KMAKE[@]}" tinyconfig
		"$TREE_DIR/scripts/kconfig/merge_config.sh" -m -O "$dir/build" "$dir/build/.config" \
			"$REPO_DIR/vm/kernel.config" "$fragment"
		"${KMAKE[@]}" olddefconfig
	} >"$LOG_DIR/matrix-$name-config.log" 2>&1 || die "$name: configuring failed; log: $LOG_DIR/matrix-$name-config.log"
	check_config
	run_logged "matrix-$name-build" "$name: building $target and modules (nice -n 19)" \
		"${KMAKE[@]}" "$target" modules
	rm -rf "$dir/modules" "$dir/headers"
	run_logged "matrix-$name-install" "$name: installing its modules and uapi headers" \
		bash -c '"$@" INSTALL_MOD_PATH="'"$dir"'/modules" modules_install && "$@" INSTALL_HDR_PATH="'"$dir"'/headers" headers_install' \
		_ "${KMAKE[@]}"
	mkdir -p "$dir/modules/lib"
	ln -sfn "build/$image_path" "$dir/image"
	ln -sfn "$toolchain" "$dir/toolchain"
	echo "$key" >"$dir/stamp"
}

if [ "$print_make" = 1 ]; then
	printf '%q ' "${KMAKE[@]}"
	echo
	exit 0
fi
mkdir -p "$MATRIX_DIR"
exec 9>"$MATRIX_DIR/.lock-$name"
flock 9
build
echo "$dir"
