#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the guest kernel in stages, each redone only when the hash of its
# inputs changes: unpack -> patch -> config -> kernel -> headers.
#   vm/kernel.sh            all stages
#   vm/kernel.sh STAGE      up to and including STAGE
#   vm/kernel.sh --print-var NAME   print a path (TREE_DIR, BUILD_DIR, ...)
#   vm/kernel.sh --check-config FILE  check a .config against vm/kernel.config
#   vm/kernel.sh --series           list the patches of the series, in order
# KERNEL_VARIANT=debug builds the debug kernel instead: the same tree,
# configured with vm/kernel-debug.config on top, into its own build and
# modules folders with its own config and kernel stamps (vm/lib.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FRAGMENTS=("$REPO_DIR/vm/kernel.config")
case ${KERNEL_VARIANT:-} in
'') ;;
debug) FRAGMENTS+=("$REPO_DIR/vm/kernel-debug.config") ;;
*) die "unknown KERNEL_VARIANT '$KERNEL_VARIANT' (empty or debug)" ;;
esac
SERIES_DIR=${SERIES_DIR:-$REPO_DIR/kernel-patches}
KMAKE=(make -C "$TREE_DIR" O="$BUILD_DIR" ARCH=x86_64 -j"$JOBS")
# A make above us (make check runs with -s) must not silence or steer this one.
unset MAKEFLAGS MFLAGS MAKELEVEL

# The patches listed in kernel-patches/series, in order; '#' starts a comment.
series_patches() {
	[ -f "$SERIES_DIR/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES_DIR/series" | grep -v '^$' || true
}

stage_unpack() {
	[ -f "$KERNEL_TARBALL" ] || die "$KERNEL_TARBALL is missing; run 'make deps' (package linux-source-6.12)"
	local key
	key=$(hash_of unpack "$KERNEL_TARBALL")
	stage_done unpack "$key" && return 0
	stage_start unpack
	rm -rf "$PRISTINE_DIR" "$PRISTINE_DIR.tmp"
	mkdir -p "$PRISTINE_DIR.tmp"
	run_logged unpack "unpacking the kernel source (~20 s, 1.7 GB)" \
		tar -xf "$KERNEL_TARBALL" -C "$PRISTINE_DIR.tmp" --strip-components=1
	mv "$PRISTINE_DIR.tmp" "$PRISTINE_DIR"
	stage_finish unpack "$key"
}

stage_patch() {
	local key patch args=(patch)
	while read -r patch; do
		[ -f "$SERIES_DIR/$patch" ] || die "kernel-patches/series lists '$patch', which does not exist"
		args+=("$SERIES_DIR/$patch")
	done < <(series_patches)
	[ ! -f "$SERIES_DIR/series" ] || args+=("$SERIES_DIR/series")
	key=$(hash_of "$(stage_key unpack)" "${args[@]}")
	stage_done patch "$key" && return 0
	stage_start patch
	# The series is applied to copies of the files it touches; then only
	# files whose contents differ are written to the tree (without the
	# pristine times), so the incremental build recompiles what a change
	# of the series really changed, and nothing else.
	local work=$CACHE_DIR/patching touched=$CACHE_DIR/patching.list f
	rm -rf "$work" && mkdir -p "$work" "$TREE_DIR"
	while read -r patch; do
		# Plain unified diffs name their files only in ---/+++ lines.
		sed -n -e 's|^--- a/\([^[:space:]]*\).*|\1|p' \
			-e 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$SERIES_DIR/$patch"
	done < <(series_patches) | sort -u >"$touched"
	while read -r f; do
		[ ! -f "$PRISTINE_DIR/$f" ] || install -D -m 0644 "$PRISTINE_DIR/$f" "$work/$f"
	done <"$touched"
	while read -r patch; do
		log "patch: applying $patch"
		patch -d "$work" -p1 --forward --batch --quiet --fuzz=0 \
			<"$SERIES_DIR/$patch" >"$LOG_DIR/patch.log" 2>&1 || {
			cat "$LOG_DIR/patch.log" >&2
			die "patch kernel-patches/$patch does not apply to linux-source-6.12"
		}
	done < <(series_patches)
	log "patch: syncing the working tree from the pristine copy and the patched files"
	rsync -rlp --checksum --delete --exclude-from=<(sed 's|^|/|' "$touched") \
		"$PRISTINE_DIR/" "$TREE_DIR/"
	while read -r f; do
		if [ ! -f "$work/$f" ]; then
			rm -f "$TREE_DIR/$f"
		elif ! cmp -s "$work/$f" "$TREE_DIR/$f"; then
			mkdir -p "$(dirname "$TREE_DIR/$f")" && cp "$work/$f" "$TREE_DIR/$f"
		fi
	done <"$touched"
	rm -rf "$work" "$touched"
	stage_finish patch "$key"
}

# Every CONFIG_ line of the fragments must be in .config with the same
# value; "# CONFIG_X is not set" must be absent or unset.
check_config() {
	local config=${1:-$BUILD_DIR/.config} line sym want got bad=()
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} want=${line#*=} ;;
		"# CONFIG_"*" is not set") sym=${line#\# } sym=${sym%% *} want=n ;;
		*) continue ;;
		esac
		got=$(grep -E "^$sym=|^# $sym is not set" "$config" || true)
		case $got in
		"$sym="*) got=${got#*=} ;;
		*) got=n ;;
		esac
		[ "$got" = "$want" ] || bad+=("$sym: wanted $want, got $got")
	done < <(cat "${FRAGMENTS[@]}")
	if [ ${#bad[@]} -gt 0 ]; then
		printf '  %s\n' "${bad[@]}" >&2
		die "the kernel configuration lacks ${#bad[@]} symbol(s) of ${FRAGMENTS[*]##*/} (above)"
	fi
}

# Configure in a scratch folder and replace .config only when it differs:
# rewriting the same configuration would still make kbuild recompile.
configure() {
	local tmp=$BUILD_DIR.configuring
	rm -rf "$tmp" && mkdir -p "$tmp" "$BUILD_DIR"
	make -C "$TREE_DIR" O="$tmp" ARCH=x86_64 tinyconfig
	"$TREE_DIR/scripts/kconfig/merge_config.sh" -m -O "$tmp" \
		"$tmp/.config" "${FRAGMENTS[@]}"
	make -C "$TREE_DIR" O="$tmp" ARCH=x86_64 olddefconfig
	cmp -s "$tmp/.config" "$BUILD_DIR/.config" || cp "$tmp/.config" "$BUILD_DIR/.config"
	rm -rf "$tmp"
}

stage_config() {
	local key
	key=$(hash_of "$(stage_key patch)" "${FRAGMENTS[@]}" "$0")
	stage_done "config$VARIANT" "$key" && return 0
	stage_start "config$VARIANT"
	mkdir -p "$BUILD_DIR"
	run_logged "config$VARIANT" "tinyconfig + ${FRAGMENTS[*]##*/} + olddefconfig (~20 s)" configure
	check_config
	stage_finish "config$VARIANT" "$key"
}

stage_kernel() {
	local key
	key=$(hash_of "$(stage_key "config$VARIANT")")
	stage_done "kernel$VARIANT" "$key" && return 0
	stage_start "kernel$VARIANT"
	run_logged "kernel-build$VARIANT" "building bzImage and modules (cold: 7-12 min on 2 cores, the debug kernel longer; after a patch change: under 2 min)" \
		"${KMAKE[@]}" bzImage modules
	rm -rf "$MODULES_DIR"
	run_logged "modules-install$VARIANT" "installing modules for the initramfs (seconds)" \
		"${KMAKE[@]}" INSTALL_MOD_PATH="$MODULES_DIR" modules_install
	stage_finish "kernel$VARIANT" "$key"
}

stage_headers() {
	local key
	key=$(hash_of "$(stage_key patch)")
	stage_done headers "$key" && return 0
	stage_start headers
	rm -rf "$HEADERS_DIR"
	run_logged headers "installing the 6.12 uapi headers (~20 s)" \
		"${KMAKE[@]}" INSTALL_HDR_PATH="$HEADERS_DIR" headers_install
	stage_finish headers "$key"
}

main() {
	local stage last=${1:-headers}
	case $last in unpack | patch | config | kernel | headers) ;;
	*) die "unknown stage '$last' (unpack, patch, config, kernel, headers)" ;;
	esac
	for stage in unpack patch config kernel headers; do
		"stage_$stage"
		[ "$stage" != "$last" ] || break
	done
	log "kernel stages up to '$last' are up to date in $CACHE_DIR"
}

# up_to_date [STAGE]: true when every stage up to STAGE is done, without
# the lock and without changing anything (a stage that would start fails
# the subshell), so a built kernel is used while another variant builds.
up_to_date() {
	(
		stage_start() { exit 1; }
		log() { :; }
		main "$@"
	) 2>/dev/null
}

case ${1:-} in
--print-var)
	printf '%s\n' "${!2:?--print-var needs a variable name}"
	exit 0
	;;
--series)
	series_patches
	exit 0
	;;
--check-config)
	check_config "${2:?--check-config needs a .config file}"
	exit 0
	;;
esac
if up_to_date "$@"; then
	log "kernel stages up to '${1:-headers}' are up to date in $CACHE_DIR"
	exit 0
fi
with_lock main "$@"
