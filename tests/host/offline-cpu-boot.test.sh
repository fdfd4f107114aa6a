#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# trace_stream on a guest booted with maxcpus=1: CPU 1 is possible (it has
# a per_cpu/cpu1 folder) but offline (no buffer to map). Reading every CPU
# prints CPU 0's events and says on stderr that CPU 1 is not read; asking
# for CPU 1 alone is an error that says it is offline.
. tests/host/lib.sh
. vm/guest.conf
root=$WORK_DIR/root
mkdir -p "$root$GUEST_PREFIX/bin"
STATIC=1 UAPI=$HEADERS_DIR check_build build "$root$GUEST_PREFIX/bin/trace_stream" \
	--lib examples/tools/trace_stream.c || exit 0

# The guest side: "key value" lines on the status channel.
cat >"$root/opt/offline-cpu.sh" <<'GUEST'
say() { echo "$1 $(echo $2)" >/dev/ttyS1; }
say online "$(cat /sys/devices/system/cpu/online)"
say cpu1-folder "$(ls -d /sys/kernel/tracing/per_cpu/cpu1)"
echo hello >/sys/kernel/tracing/trace_marker
rc=0
trace_stream --nonblock >/tmp/out 2>/tmp/err || rc=$?
say all-exit "$rc"
say all-out "$(cut -d' ' -f1,3- /tmp/out)"
say all-err "$(cat /tmp/err)"
rc=0
trace_stream --cpu 1 --nonblock >/tmp/out 2>/tmp/err || rc=$?
say cpu1-exit "$rc"
say cpu1-err "$(cat /tmp/err)"
GUEST
if ! initramfs=$(vm/initramfs.sh "$root" 2>"$WORK_DIR/initramfs.log"); then
	fail initramfs "$(tail -n 2 "$WORK_DIR/initramfs.log")"
	exit 0
fi
rc=0
vm/run.sh --initramfs "$initramfs" --timeout 120 --append maxcpus=1 \
	--channel "$WORK_DIR/channel" -- sh /opt/offline-cpu.sh >"$WORK_DIR/boot.log" 2>&1 || rc=$?
if [ "$rc" != 0 ]; then
	fail boots "exit $rc; see $WORK_DIR/boot.log"
	exit 0
fi
# got KEY: what the guest said for KEY
got() { sed -n "s/^$1 //p" "$WORK_DIR/channel"; }

# The premise: CPU 1 offline, its tracefs folder there.
expect_eq premise "0 /sys/kernel/tracing/per_cpu/cpu1" "$(got online) $(got cpu1-folder)"
expect_eq all-cpus-exit 0 "$(got all-exit)"
expect_eq all-cpus-prints-cpu0 "0 ftrace/print hello" "$(got all-out)"
case $(got all-err) in
*"cpu1 is not online"*"not read"*) pass all-cpus-says-cpu1-skipped ;;
*) fail all-cpus-says-cpu1-skipped "stderr: '$(got all-err)'" ;;
esac
expect_eq cpu1-exit 1 "$(got cpu1-exit)"
case $(got cpu1-err) in
*"cpu1 is not online"*) pass cpu1-says-offline ;;
*) fail cpu1-says-offline "stderr: '$(got cpu1-err)'" ;;
esac
