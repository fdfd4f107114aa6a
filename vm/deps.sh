#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages the project needs; quiet when all are present.
# DEPS_EXTRA='pkg ...' requires more packages (used by the tests).
set -euo pipefail

PACKAGES=(
	linux-source-6.12 qemu-system-x86 busybox-static
	gcc libc6-dev gcc-multilib libc6-dev-i386 make bc bison flex libelf-dev libssl-dev cpio kmod rsync xz-utils lz4
	patch git perl
	libtraceevent-dev trace-cmd
	clang libclang-rt-14-dev valgrind python3-matplotlib
	python3-sphinx graphviz chromium
)
read -ra extra <<<"${DEPS_EXTRA:-}"
PACKAGES+=("${extra[@]}")

# One dpkg-query for all: "name status" for each installed package.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null |
	awk '$2 " " $3 " " $4 == "install ok installed" { print $1 }' || true)
missing=()
for pkg in "${PACKAGES[@]}"; do
	grep -qxF "$pkg" <<<"$installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# apt's own count of the download (it answers no to its question).
size=$(apt-get install --assume-no --no-install-recommends "${missing[@]}" 2>/dev/null |
	sed -n 's/^Need to get \([^ ]* [^ ]*\).*/\1/p' || true)
echo "deps: installing ${missing[*]} (${size:-an unknown size} to download)" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
