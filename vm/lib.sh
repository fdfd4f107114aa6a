# SPDX-License-Identifier: MIT
# Shared helpers for the vm/ scripts: paths, logging, input hashes and
# stage stamps. Source it; do not run it.

set -euo pipefail

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/trace-mmap-guide}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(nproc)}

PRISTINE_DIR=$CACHE_DIR/linux-pristine
TREE_DIR=$CACHE_DIR/linux
# KERNEL_VARIANT=debug: the debug kernel's own build and modules folders
# and config/kernel stamps (vm/kernel.sh); the tree and headers are shared.
VARIANT=${KERNEL_VARIANT:+-$KERNEL_VARIANT}
BUILD_DIR=$CACHE_DIR/build$VARIANT
HEADERS_DIR=$CACHE_DIR/headers
MODULES_DIR=$CACHE_DIR/modules$VARIANT
INITRAMFS_DIR=${INITRAMFS_DIR:-$CACHE_DIR/initramfs}
STAMP_DIR=$CACHE_DIR/stamps
LOG_DIR=$CACHE_DIR/logs

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# hash_of WORD|FILE... -> sha256 of the words and of the contents of files.
hash_of() {
	local item
	for item in "$@"; do
		if [ -f "$item" ]; then
			printf 'file %s\n' "${item##*/}"
			file_sha256 "$item"
		else
			printf 'word %s\n' "$item"
		fi
	done | sha256sum | cut -c1-16
}

# file_sha256 FILE -> sha256sum's line for FILE's contents. A large file's
# (the kernel tarball's: 150 MB, a second or more on every make) is
# remembered under its path, size, inode and change time, and is hashed
# again when any of them differs.
file_sha256() {
	local memo
	if [ "$(stat -c %s "$1")" -lt $((16 << 20)) ]; then
		sha256sum <"$1"
		return
	fi
	memo=$STAMP_DIR/sha256-$(stat -c '%n %s %i %Z %Y' "$1" | sha256sum | cut -c1-16)
	if [ ! -f "$memo" ]; then
		mkdir -p "$STAMP_DIR"
		sha256sum <"$1" >"$memo.$$"
		mv "$memo.$$" "$memo"
	fi
	cat "$memo"
}

# hash_tree DIR -> hash of every file's relative path, mode and contents.
hash_tree() {
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z |
		xargs -0r sha256sum && find . -type f -perm -u+x | LC_ALL=C sort) |
		sha256sum | cut -c1-16
}

# A stage is done when its stamp holds the key of its inputs. The stamp is
# removed before the stage starts and written only after it succeeded, so
# an interrupted stage is never taken as done.
stage_done() { [ "$(cat "$STAMP_DIR/$1" 2>/dev/null)" = "$2" ]; }
stage_start() { mkdir -p "$STAMP_DIR" "$LOG_DIR"; rm -f "$STAMP_DIR/$1"; }
stage_finish() { printf '%s\n' "$2" >"$STAMP_DIR/$1"; }
stage_key() { cat "$STAMP_DIR/$1" 2>/dev/null || die "stage '$1' has not been built; run 'make kernel'"; }

# with_lock CMD... : one builder at a time per cache directory.
with_lock() {
	mkdir -p "$CACHE_DIR"
	exec 9>"$CACHE_DIR/.lock"
	if ! flock -n 9; then
		log "waiting for another build using $CACHE_DIR"
		flock 9
	fi
	"$@"
}

# run_logged NAME WHAT CMD... : run a long command with its output in a
# log file, saying what it does and how long it takes, a heartbeat every
# minute, and the log's tail on failure.
run_logged() {
	local name=$1 what=$2 logfile="$LOG_DIR/$1.log" pid rc=0 start=$SECONDS
	shift 2
	mkdir -p "$LOG_DIR"
	log "$name: $what; log: $logfile"
	"$@" >"$logfile" 2>&1 &
	pid=$!
	while ! wait_for "$pid" 60; do
		log "$name: $(((SECONDS - start) / 60)) min so far; last: $(tail -n 1 "$logfile" | cut -c1-100)"
	done
	wait "$pid" || rc=$?
	if [ "$rc" -ne 0 ]; then
		tail -n 40 "$logfile" >&2
		die "$name failed (exit $rc); full log: $logfile"
	fi
	log "$name: done in $((SECONDS - start)) s"
}

# wait_for PID SECONDS: true once PID has exited, false after SECONDS.
wait_for() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 1
	done
	! kill -0 "$1" 2>/dev/null
}

# The guest's kernel log, kept on the host (the debug guest's and Debian's
# kernels'): KERNEL_LOG_CMD, run in the guest after its tests, prints it on
# the console under a line of its own, and kernel_log_split CONSOLE FILE
# moves what follows that line (carriage returns dropped) from the console's
# log into FILE. On the console alone the kernel shows only what is more
# urgent than loglevel= (vm/run.sh: 4, errors), not its warnings or info.
KERNEL_LOG_MARK='=== dmesg'
KERNEL_LOG_CMD="echo '$KERNEL_LOG_MARK'; dmesg"
# kernel_log_split CONSOLE FILE: false, and FILE saying so, when CONSOLE
# has no kernel log (the guest died or timed out before it).
kernel_log_split() {
	local console=$1 file=$2
	rm -f "$file"
	if awk -v mark="$KERNEL_LOG_MARK" -v file="$file" '
		{ sub(/\r$/, "") }
		!found && $0 == mark { found = 1; next }
		found { print >file; next }
		{ print }
		END { exit !found }' "$console" >"$console.tmp"; then
		mv "$console.tmp" "$console"
	else
		rm -f "$console.tmp"
		echo "no kernel log: the guest did not print it (no '$KERNEL_LOG_MARK' line in $console)" >"$file"
		return 1
	fi
}
