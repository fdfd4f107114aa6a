#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How the seed corpora of format_fuzz.c and formats_dir_fuzz.c were made,
# from the guest (run "make initramfs" first):
#   tests/fuzz/capture-seeds.sh
# The guest enables one event type at a time, makes it happen, and keeps
# its format file and the sub-buffers read() of trace_pipe_raw returned
# on each CPU. The host then writes
#   corpus/format/SYSTEM-EVENT   the format file, a NUL, and the payload of
#                                the first event of that type (the format
#                                alone when none was recorded)
#   corpus/format/header_page-seq_event-subbuf
#                                events/header_page, a NUL, and a sub-buffer
#                                of seq_producer events cut after what it
#                                holds (its data, and a stored count)
#   corpus/formats_dir/*         header_page and five or six format files,
#                                separated by NULs
# replacing what is there. The payloads hold times, PIDs and addresses of
# that boot: a new capture differs in those bytes.
set -euo pipefail
. "$(dirname "$0")/../host/lib.sh" # OUT_DIR; the repository as the working folder
share=$(mktemp -d)
trap 'rm -rf "$share"' EXIT

cat >"$share/guest.sh" <<'EOF'
set -eu
T=/sys/kernel/tracing
M=/opt/trace-mmap-guide/modules
P=/sys/module/seq_producer/parameters
out=/mnt/share/cap
mkdir -p $out
cp $T/events/header_page $out/
echo 1024 >$T/buffer_size_kb
n=0
for e in ftrace/print sched/sched_switch sched/sched_wakeup \
	sched/sched_process_exec sched/sched_process_fork raw_syscalls/sys_enter \
	irq/irq_handler_entry ipi/ipi_send_cpumask signal/signal_generate \
	timer/hrtimer_start module/module_load seq_producer/seq_event \
	task/task_newtask printk/console; do
	case $e in seq_producer/*) insmod $M/seq_producer.ko cpu=0 ;; esac
	mkdir -p $out/events/$e
	cp $T/events/$e/format $out/events/$e/format
	echo 0 >$T/tracing_on
	echo >$T/trace
	[ $e = ftrace/print ] || echo 1 >$T/events/$e/enable
	echo 1 >$T/tracing_on
	case $e in
	ftrace/print) echo "marker one" >$T/trace_marker ;;
	seq_producer/*)
		echo 3 >$P/count && echo 24 >$P/size && echo 1000 >$P/rate
		echo 1 >$P/run
		sleep 1
		;;
	module/*) insmod $M/alloc_leak.ko 2>/dev/null || true ;;
	printk/*) echo hi >/dev/kmsg ;;
	signal/*) sh -c 'trap "" USR1; kill -USR1 $$' ;;
	*) sh -c 'ls / >/dev/null' && sleep 0.2 ;;
	esac
	echo 0 >$T/tracing_on
	[ $e = ftrace/print ] || echo 0 >$T/events/$e/enable
	n=$((n + 1))
	for c in 0 1; do
		timeout 1 dd if=$T/per_cpu/cpu$c/trace_pipe_raw \
			of=$out/e$n-cpu$c.raw bs=4096 2>/dev/null || true
	done
	case $e in seq_producer/*) rmmod seq_producer ;; esac
done
EOF
vm/run.sh --initramfs "$(vm/initramfs.sh "$OUT_DIR/guest-root")" --timeout 180 \
	--share "$share" -- 'sh /mnt/share/guest.sh' >"$share/boot.log" 2>&1 ||
	{ echo "capture-seeds: the guest failed: $(tail -n 3 "$share/boot.log")" >&2; exit 1; }

# The sub-buffers decoded by the library (tests/fuzz/subbuf_dump.c): the
# script below only picks events and writes files.
build_c "$share/subbuf_dump" --lib tests/fuzz/subbuf_dump.c ||
	{ echo "capture-seeds: subbuf_dump does not build: $(head -n 3 "$share/subbuf_dump.log")" >&2; exit 1; }
"$share/subbuf_dump" 4096 "$share"/cap/*.raw >"$share/dump"

python3 - "$share/cap" tests/fuzz/corpus "$share/dump" <<'EOF'
import glob, os, re, sys

cap, corpus, dump = sys.argv[1], sys.argv[2], sys.argv[3]
SUBBUF = 4096  # the sub-buffer size the guest's buffer had


def subbufs():
    """(file, offset, bytes in use, [(type, payload)]) of each sub-buffer"""
    evs = []
    for line in open(dump):
        kind, *rest = line.split()
        if kind == 'event':
            evs.append((int(rest[0]), bytes.fromhex(rest[1] if len(rest) > 1 else '')))
        else:
            yield rest[0], int(rest[1]), int(rest[2]), evs
            evs = []


fmts = {}
for path in glob.glob(cap + '/events/*/*/format'):
    text = open(path, 'rb').read()
    name = '-'.join(path.split('/')[-3:-1])
    fmts[name] = (int(re.search(rb'^ID: (\d+)$', text, re.M).group(1)), text)
first = {}
for _, _, _, evs in subbufs():
    for ev_type, payload in evs:
        first.setdefault(ev_type, payload)
header_page = open(cap + '/header_page', 'rb').read()

out = os.path.join(corpus, 'format')
for f in glob.glob(out + '/*'):
    os.remove(f)
for name, (ev_id, text) in sorted(fmts.items()):
    payload = first.get(ev_id)
    open(os.path.join(out, name), 'wb').write(
        text if payload is None else text + b'\0' + payload)
seq_id = fmts['seq_producer-seq_event'][0]
for path, off, end, evs in subbufs():
    if any(ev_type == seq_id for ev_type, _ in evs):
        with open(path, 'rb') as f:
            f.seek(off)
            page = f.read(SUBBUF)
        open(os.path.join(out, 'header_page-seq_event-subbuf'), 'wb').write(
            header_page + b'\0' + page[:end])
        break

out = os.path.join(corpus, 'formats_dir')
for f in glob.glob(out + '/*'):
    os.remove(f)
sets = {
    'header_page-5-formats': ['ftrace-print', 'sched-sched_switch',
                              'seq_producer-seq_event', 'printk-console',
                              'sched-sched_process_exec'],
    'header_page-6-formats': ['irq-irq_handler_entry', 'ipi-ipi_send_cpumask',
                              'module-module_load', 'ftrace-print',
                              'signal-signal_generate', 'sched-sched_wakeup'],
}
for seed, names in sets.items():
    open(os.path.join(out, seed), 'wb').write(
        b'\0'.join([header_page] + [fmts[n][1] for n in names]))
for name, (ev_id, _) in sorted(fmts.items()):
    print(name, 'with a payload' if ev_id in first else 'format only')
EOF
