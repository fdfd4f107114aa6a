#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot the guest kernel in QEMU, run one shell command in it and exit with
# that command's exit status.
#   vm/run.sh [options] -- COMMAND
#     --initramfs FILE   base initramfs (from vm/initramfs.sh); required
#     --kernel FILE      boot this kernel image (default: ours, from make
#                        kernel; vm/debian-kernel.sh fetches Debian's)
#     --timeout SEC      kill QEMU after SEC seconds (default 600, or none
#                        with --interactive; 0 = none)
#     --share DIR        mount host folder DIR at /mnt/share in the guest
#     --append ARGS      extra kernel command-line arguments
#     --log FILE         also write the console output to FILE
#     --channel FILE     save what the guest wrote to /dev/ttyS1 (the status
#                        channel; guest tests write their result lines there)
#     --interactive      console on this terminal
#     --arch ARCH        the kernel's architecture: x86_64 (default), or a
#                        matrix kernel's (vm/matrix-kernel.sh): arm64
#                        (qemu-system-aarch64 -M virt -cpu max; the status
#                        channel is a virtio console, /dev/ttyS1 a link to
#                        it), i386 (qemu-system-i386) or s390
#                        (qemu-system-s390x -M s390-ccw-virtio, big-endian;
#                        console on the SCLP VT220 terminal, the status
#                        channel a virtio console as on arm64); all TCG
#                        unless ACCEL says otherwise, and need --kernel
#   ACCEL=kvm|tcg in the environment skips the KVM probe; VM_MEMORY=MB
#   sets the guest's memory (512 MB unless set).
# The status travels on its own channel (the guest's second serial port);
# no status line there -- a hang, panic or early death -- is a failure (255).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# usage: this file's header comment, from the line after the SPDX one.
usage() { awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }

initramfs='' kernel='' timeout='' share='' append='' console_log='' channel='' interactive=0 arch=x86_64
while [ $# -gt 0 ]; do
	case $1 in
	--initramfs) initramfs=${2:?}; shift 2 ;;
	--kernel) kernel=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--share) share=${2:?}; shift 2 ;;
	--append) append=${2:?}; shift 2 ;;
	--log) console_log=${2:?}; shift 2 ;;
	--channel) channel=${2:?}; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--arch) arch=${2:?}; shift 2 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
case $arch in
x86_64) ;;
arm64 | i386 | s390) [ -n "$kernel" ] || die "--arch $arch needs --kernel (vm/matrix-kernel.sh builds it)" ;;
*) die "--arch: unknown architecture '$arch' (x86_64, arm64, i386 or s390)" ;;
esac
[ -f "$initramfs" ] || die "initramfs '$initramfs' not found; run 'make initramfs'"
if [ -z "$kernel" ]; then
	kernel=$BUILD_DIR/arch/x86/boot/bzImage
	[ -f "$kernel" ] || die "$kernel not found; run 'make kernel'"
fi
[ -f "$kernel" ] || die "--kernel: '$kernel' not found"
[ -z "$share" ] || [ -d "$share" ] || die "--share: '$share' is not a folder"
[ -z "$share" ] || [ "$arch" != s390 ] || die "--share: the s390 guest kernel has no 9p (vm/matrix/s390x.config)"
if [ -z "$timeout" ]; then
	timeout=600
	[ "$interactive" = 0 ] || timeout=0
fi
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout: '$timeout' is not a number of seconds"

work=$(mktemp -d "${TMPDIR:-/tmp}/trace-mmap-guide-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The command rides in a second, tiny cpio archive appended to the base one.
# On arm64 and s390 the status channel is the virtio console: /dev/ttyS1
# (which the tests and vm/init write to) becomes a link to it first.
{
	[ "$arch" != arm64 ] && [ "$arch" != s390 ] || echo 'ln -sf hvc0 /dev/ttyS1'
	printf '%s\n' "$*"
} >"$work/cmd"
echo "file /run/vm-command $work/cmd 0644 0 0" >"$work/cmd.list"
"${GEN_INIT_CPIO:-$BUILD_DIR/usr/gen_init_cpio}" "$work/cmd.list" | gzip -n -1 >"$work/cmd.cpio.gz"
cat "$initramfs" "$work/cmd.cpio.gz" >"$work/initrd"
: >"$work/status"

# KVM only where a quick probe proved it boots, TCG otherwise: on some hosts
# /dev/kvm is there but a KVM guest hangs at "Booting from ROM" and -cpu host
# aborts. The probe runs once per cache ($STAMP_DIR/kvm-probe holds its
# answer); ACCEL=kvm or ACCEL=tcg skips it.
accel() {
	local probe=$STAMP_DIR/kvm-probe
	if [ "${ACCEL:-auto}" != auto ]; then echo "$ACCEL"; return; fi
	if [ "$arch" != x86_64 ]; then echo tcg; return; fi
	if [ ! -w /dev/kvm ]; then echo tcg; return; fi
	if [ ! -f "$probe" ]; then
		mkdir -p "$STAMP_DIR"
		log "probing whether KVM boots this kernel (once, up to 30 s)"
		if timeout -k 2 30 qemu-system-x86_64 -accel kvm -cpu host -m 256 -nographic \
			-no-reboot -kernel "$kernel" -initrd "$work/initrd" -serial null \
			-serial file:"$work/status" -monitor none \
			-append "console=ttyS0 panic=-1" >/dev/null 2>&1 &&
			grep -q '^guest-exit-status' "$work/status"; then
			echo kvm >"$probe"
		else
			echo tcg >"$probe"
		fi
		: >"$work/status"
	fi
	cat "$probe"
}
ACCEL=$(accel)
cpu=max
[ "$ACCEL" = tcg ] || cpu=host

# no_timer_check: under TCG on a loaded host the kernel's early check of
# the timer interrupt can miss its window and panic ("IO-APIC + timer
# doesn't work"; seen once in make check with both cores busy).
# acpi=noirq with a share: the 9p device's PCI interrupt is the one the
# firmware routed, not one from ACPI's interrupt links, whose evaluation
# under TCG made the device's probe take 220 to 350 ms (12 to 17 ms with
# it; initcall_debug, three boots of each, 6 December 2026).
qemu=(qemu-system-x86_64 -accel "$ACCEL" -cpu "$cpu" -smp 2 -m "${VM_MEMORY:-512}"
	-nographic -no-reboot -nic none -kernel "$kernel" -initrd "$work/initrd"
	-serial mon:stdio -serial file:"$work/status"
	-append "console=ttyS0 panic=-1 loglevel=4 no_timer_check ${share:+acpi=noirq }$append")
# qboot, QEMU's minimal firmware for -kernel boots (qemu-system-data):
# a guest that runs one command ended about 0.3 s sooner than with the
# default SeaBIOS (2.97 s against 3.30 s, the means of five boots each,
# 5 December 2026).
qboot=/usr/share/qemu/qboot.rom
case $arch in
x86_64) [ ! -f "$qboot" ] || qemu+=(-bios "$qboot") ;;
i386) qemu[0]=qemu-system-i386 ;;
arm64)
	# pauth-impdef: the CPU's own pointer-authentication algorithm, which
	# TCG computes much faster than the architected one.
	qemu=(qemu-system-aarch64 -M virt -accel "$ACCEL" -cpu max,pauth-impdef=on -smp 2 -m "${VM_MEMORY:-512}"
		-nographic -no-reboot -nic none -kernel "$kernel" -initrd "$work/initrd"
		-serial mon:stdio -device virtio-serial-pci -chardev file,id=status,path="$work/status"
		-device virtconsole,chardev=status
		-append "console=ttyAMA0 panic=-1 loglevel=4 $append")
	;;
s390)
	# The first -serial is the SCLP VT220 terminal (ttysclp0); a second
	# would be the SCLP line-mode one, so the status goes to a virtio
	# console on virtio-ccw (hvc0).
	qemu=(qemu-system-s390x -M s390-ccw-virtio -accel "$ACCEL" -cpu max -smp 2 -m "${VM_MEMORY:-512}"
		-nographic -no-reboot -nic none -kernel "$kernel" -initrd "$work/initrd"
		-serial mon:stdio -device virtio-serial-ccw -chardev file,id=status,path="$work/status"
		-device virtconsole,chardev=status
		-append "console=ttysclp0 panic=-1 loglevel=4 $append")
	;;
esac
if [ -n "$share" ]; then
	qemu+=(-virtfs "local,path=$share,mount_tag=share,security_model=none,id=share")
fi

rc=0
if [ "$interactive" = 1 ]; then
	timeout --foreground -k 5 "$timeout" "${qemu[@]}" || rc=$?
elif [ -n "$console_log" ]; then
	timeout -k 5 "$timeout" "${qemu[@]}" </dev/null 2>&1 | tee "$console_log" ||
		rc=${PIPESTATUS[0]}
else
	timeout -k 5 "$timeout" "${qemu[@]}" </dev/null 2>&1 || rc=$?
fi
tr -d '\r' <"$work/status" >"$work/channel"
# -a: a line with bytes that are not text (a learner's program printing
# garbage, shown in a FAIL line) must not make grep drop it as binary.
[ -z "$channel" ] || grep -a -v '^guest-exit-status ' "$work/channel" >"$channel" || true
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "vm: timed out after ${timeout} s; QEMU killed" >&2
	exit 255
fi
status=$(sed -n 's/^guest-exit-status \([0-9]\+\)$/\1/p' "$work/channel" | tail -n 1)
if [ -z "$status" ]; then
	echo "vm: the guest reported no exit status (QEMU exit $rc): it crashed, panicked or hung" >&2
	exit 255
fi
exit "$status"
