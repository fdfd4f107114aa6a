#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The boot parameter sysctl.vm.mem_profiling=0|1|never, which only a fresh
# boot can show: boots the guest once per value (a few seconds each under
# TCG) and checks the sysctl's value and mode, whether it can be written,
# and whether /proc/allocinfo counts anything.
. tests/host/lib.sh
out=$WORK_DIR
mkdir -p "$out/root/opt"

# The guest side, staged into the initramfs: "key value" lines on the status
# channel. "counting" is the number of allocinfo lines with bytes > 0 after
# some work (a few forks).
cat >"$out/root/opt/boot-check.sh" <<'GUEST'
say() { echo "$1 $2" >/dev/ttyS1; }
s=/proc/sys/vm/mem_profiling
work() { for i in 1 2 3; do ls /proc >/dev/null; done; }
counting() { sed 1,2d /proc/allocinfo | awk '$1 > 0' | wc -l; }
say value "$(cat $s)"
say mode "$(ls -l $s | cut -c1-10)"
work
say counting "$(counting)"
if echo 1 >$s 2>/dev/null; then say write-1 ok; else say write-1 refused; fi
say after-write "$(cat $s)"
work
say counting-after-write "$(counting)"
say page-ext "$(dmesg | grep -c 'bytes of page_ext')"
say sysctl-message "$(dmesg | grep -c 'Failed to set sysctl parameter .vm.mem_profiling')"
GUEST
guest_initramfs "$out/root" || exit 0

# boot NAME [APPEND]: boot with these extra kernel arguments; results in
# $out/NAME.
boot() {
	local rc=0 append=()
	[ -z "$2" ] || append=(--append "$2")
	vm/run.sh --initramfs "$INITRAMFS" --timeout 120 "${append[@]}" \
		--channel "$out/$1" -- sh /opt/boot-check.sh >"$out/$1.log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$1-boots" "exit $rc; see $out/$1.log"
		return 1
	fi
	pass "$1-boots"
}
# want NAME KEY VALUE: the guest booted as NAME reported KEY VALUE.
want() { expect_eq "$1-$2" "$3" "$(sed -n "s/^$2 //p" "$out/$1")"; }
# want_some NAME KEY: KEY is a number above 0.
want_some() {
	local got
	got=$(sed -n "s/^$2 //p" "$out/$1")
	expect_ge "$1-$2" 1 "${got:-0}"
}

# Default (CONFIG_MEM_ALLOC_PROFILING_ENABLED_BY_DEFAULT=y): on, writable.
if boot default ""; then
	want default value 1
	want default mode -rw-r--r--
	want_some default counting
	want default page-ext 1
fi
# =1: the same.
if boot on sysctl.vm.mem_profiling=1; then
	want on value 1
	want on mode -rw-r--r--
	want_some on counting
fi
# =0: off, nothing counted, but it can be switched on at run time.
if boot off sysctl.vm.mem_profiling=0; then
	want off value 0
	want off mode -rw-r--r--
	want off counting 0
	want off write-1 ok
	want off after-write 1
	want_some off counting-after-write
	want off page-ext 1
fi
# =never: off for good: read-only sysctl, no page_ext, nothing counted, and
# the generic sysctl.* boot handling complains that it cannot write it.
if boot never sysctl.vm.mem_profiling=never; then
	want never value 0
	want never mode -r--r--r--
	want never counting 0
	want never write-1 refused
	want never after-write 0
	want never counting-after-write 0
	want never page-ext 0
	want never sysctl-message 1
fi
