#!/bin/sh
# SPDX-License-Identifier: MIT
# How tests/host/data/cap*.raw were captured in the guest (busybox sh, the
# repository's _build folder shared at /mnt/share): the bytes read() of
# per_cpu/cpu0/trace_pipe_raw returned, whole sub-buffers.
#  cap4k.raw: 4 KiB sub-buffers, buffer_size_kb=8, 2000 markers "capture N"
#             on CPU 0; stats said overrun 1696, so 304 events survive and
#             the first sub-buffer reports 1696 missed.
#  cap8k.raw: 8 KiB sub-buffers, 20 x ("large N 000..." of 200+ bytes,
#             "small N"), a 0.2 s pause every 5 (time extends); no loss.
set -eu
T=/sys/kernel/tracing
out=${1:-/mnt/share}
echo 0 >$T/tracing_on
echo 4 >$T/buffer_subbuf_size_kb
echo 8 >$T/buffer_size_kb
echo >$T/trace
echo 1 >$T/tracing_on
taskset 1 sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); echo "capture $i" >/sys/kernel/tracing/trace_marker; done'
grep overrun $T/per_cpu/cpu0/stats
timeout 3 dd if=$T/per_cpu/cpu0/trace_pipe_raw of="$out/cap4k.raw" bs=4096 2>/dev/null || true

echo 0 >$T/tracing_on
echo 8 >$T/buffer_subbuf_size_kb
echo 64 >$T/buffer_size_kb
echo >$T/trace
echo 1 >$T/tracing_on
big=$(printf '%0200d' 0)
taskset 1 sh -c "i=0; while [ \$i -lt 20 ]; do i=\$((i+1)); echo \"large \$i $big\" >$T/trace_marker; [ \$((i % 5)) = 0 ] && sleep 0.2; echo \"small \$i\" >$T/trace_marker; done"
timeout 3 dd if=$T/per_cpu/cpu0/trace_pipe_raw of="$out/cap8k.raw" bs=8192 2>/dev/null || true
cp $T/events/ftrace/print/format "$out/print.format"
