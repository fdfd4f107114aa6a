#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages the project needs; quiet when all are present.
# DEPS_EXTRA='pkg ...' requires more packages (used by the tests).
set -euo pipefail

PACKAGES=(
	linux-source-6.12 qemu-system-x86 busybox-static
	gcc libc6-dev make bc bison flex libelf-dev libssl-dev cpio kmod rsync xz-utils
	patch git perl
	libtraceevent-dev trace-cmd
	clang libclang-rt-14-dev valgrind python3-matplotlib
	python3-sphinx graphviz chromium
)
read -ra extra <<<"${DEPS_EXTRA:-}"
PACKAGES+=("${extra[@]}")

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]} (first time: a few minutes, ~400 MB download)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
