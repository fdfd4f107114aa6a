#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare our decoder's text with what other programs make of the events.

  tracedat_compare.py OURS TRACECMD        (trace-cmd report -R -t FILE)
  tracedat_compare.py --oracle OURS TRACE  (the kernel's own trace file)
  tracedat_compare.py --merged MERGED PERCPU


OURS: trace_stream lines "CPU S.NS SYSTEM/EVENT PAYLOAD" and loss lines
"CPU S.NS missed N|unknown ...". TRACECMD: the output of
"trace-cmd report -R -t FILE". Per CPU, both must hold the same events in
the same order with the same timestamps and field values, and a loss where
the sub-buffers record one ("missed N" against "CPU:N [N EVENTS DROPPED]"
or "[EVENTS DROPPED]"). Losses that no sub-buffer records (dropped with
overwrite off, resets, another reader) are not in a trace.dat: they are
skipped. Prints "same: N events, M losses" or the first difference per CPU
(at most 5 lines), and exits 1 on a difference.

--oracle: TRACE is the tracefs "trace" file of the same buffer, read before
our reader consumed it. Per CPU, the same events in the same order, the
same times (the kernel prints microseconds, rounded), and for the events
below the same values: the kernel's text is parsed per event type, as its
print fmt writes it (prev_state letters, target_cpu=%03d, handled, hex).
--merged: MERGED, a merged stream, never goes back in time, and holds the
same multiset of (CPU, event, payload) as PERCPU, another reader's output
of the same events (times differ: two buffers). With --late N: exactly N
lines are stamped before an earlier line (the count trace_stream reported).
"""
import re
import sys

EV_TC = re.compile(r"\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d{9}): (\w+):\s+(.*)$")
DROP_TC = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]")


def unescape(s):
    return re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), s)


def parse_ours(path):
    cpus = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) < 3 or not parts[0].isdigit():
            continue
        cpu, ts, what = int(parts[0]), parts[1], parts[2]
        rest = parts[3] if len(parts) > 3 else ""
        items = cpus.setdefault(cpu, [])
        if what == "missed":
            if rest.endswith(" dropped"):
                continue  # overwrite off: not in the pages
            items.append(("loss", None if rest.startswith("unknown") else int(rest.split()[0])))
        elif "/" in what:
            items.append(("ev", ts, what, rest))
        # reset, other-reader: not in the pages
    return cpus


def parse_tc(path):
    cpus = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = DROP_TC.match(line)
        if m:
            cpus.setdefault(int(m.group(1)), []).append(
                ("loss", int(m.group(2)) if m.group(2) else None))
            continue
        m = EV_TC.search(line)
        if m:
            cpus.setdefault(int(m.group(1)), []).append(
                ("ev", m.group(2), m.group(3), m.group(4)))
    return cpus


def our_fields(payload):
    """name=value pairs of trace_stream, strings in quotes."""
    out = []
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', payload):
        v = m.group(2)
        out.append((m.group(1), unescape(v[1:-1]) if v.startswith('"') else v))
    return out


def tc_fields(payload, names):
    """Split trace-cmd's raw "a=1 b=x y c=2" at the names we expect."""
    vals, pos = {}, 0
    for i, name in enumerate(names):
        key = name + "="
        if not payload.startswith(key, pos):
            return None
        start = pos + len(key)
        if i + 1 < len(names):
            nxt = payload.find(" " + names[i + 1] + "=", start)
            if nxt < 0:
                return None
        else:
            nxt = len(payload)
        vals[name] = payload[start:nxt]
        pos = nxt + 1
    return vals


def same_value(ours, theirs):
    if ours == theirs:
        return True
    m = re.fullmatch(r"ARRAY\[(.*)\]", theirs)
    if m and ours.startswith("0x"):
        return ours[2:] == "".join(b.strip() for b in m.group(1).split(","))
    try:
        # trace-cmd keeps a field's print width: target_cpu=001
        # and prints long fields in hex, as unsigned: ret=0xfffffffffffffffe
        if theirs.startswith("0x"):
            return int(ours, 0) % (1 << 64) == int(theirs, 16)
        if re.fullmatch(r"-?\d+", theirs):
            return int(ours, 0) == int(theirs, 10)
        return int(ours, 0) == int(theirs, 0)
    except ValueError:
        return False


def same_event(o, t):
    """None when equal, else why not."""
    if o[1] != t[1]:
        return "time %s vs %s" % (o[1], t[1])
    system, name = o[2].split("/", 1)
    if name != t[2]:
        return "event %s vs %s" % (o[2], t[2])
    if o[2] == "ftrace/print":
        buf = re.sub(r"^ip=\S+ buf=", "", t[3]).rstrip("\n")
        return None if unescape(o[3]) == buf else "text %r vs %r" % (o[3], buf)
    fields = our_fields(o[3])
    theirs = tc_fields(t[3], [f for f, _ in fields])
    if theirs is None:
        return "fields %r vs %r" % (o[3], t[3])
    for f, v in fields:
        if not same_value(v, theirs[f]):
            return "%s=%s vs %s" % (f, v, theirs[f])
    return None


def compare(ours, theirs):
    bad, events, losses = [], 0, 0
    for cpu in sorted(set(ours) | set(theirs)):
        o, t = ours.get(cpu, []), theirs.get(cpu, [])
        # A loss before no event (an empty sub-buffer) cannot show in trace-cmd.
        while o and o[-1][0] == "loss":
            o = o[:-1]
        for i in range(max(len(o), len(t))):
            if i >= len(o) or i >= len(t):
                bad.append("cpu%d item %d: %s vs %s" % (
                    cpu, i, o[i] if i < len(o) else "end", t[i] if i < len(t) else "end"))
                break
            if o[i][0] != t[i][0]:
                bad.append("cpu%d item %d: %s vs %s" % (cpu, i, o[i], t[i]))
                break
            if o[i][0] == "loss":
                losses += 1
                if t[i][1] is not None and o[i][1] != t[i][1]:
                    bad.append("cpu%d item %d: missed %s vs %s" % (cpu, i, o[i][1], t[i][1]))
                    break
                continue
            events += 1
            why = same_event(o[i], t[i])
            if why:
                bad.append("cpu%d item %d (%s): %s" % (cpu, i, o[i][2], why))
                break
    return bad, events, losses


TRACE_LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d{6}): (.*)$")
# The kernel writes system calls its own way, not by their print fmt.
SYS_ENTER = re.compile(r"sys_(\w+)\((.*)\)$")
SYS_EXIT = re.compile(r"sys_(\w+) -> (0x[0-9a-f]+)$")
OTHER = re.compile(r"(\w+): (.*)$")
SOFTIRQ = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"]
STATE = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"), (0x20, "Z"), (0x40, "P"), (0x80, "I")]


def prev_state(v):
    """sched_switch's prev_state as the 6.12 print fmt writes it."""
    v = int(v)
    letters = "|".join(c for bit, c in STATE if v & 0xff & bit) or "R"
    return letters + ("+" if v & 0x100 else "")


def u64(v):
    return int(v, 0) % (1 << 64)


# event -> (regex over the kernel's text, [(group, our field, how)])
KERNEL_TEXT = {
    "sched_switch": (r"prev_comm=(.*) prev_pid=(-?\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                     r"next_comm=(.*) next_pid=(-?\d+) next_prio=(-?\d+)$",
                     ["prev_comm", "prev_pid", "prev_prio", ("prev_state", prev_state),
                      "next_comm", "next_pid", "next_prio"]),
    "sched_wakeup": (r"comm=(.*) pid=(-?\d+) prio=(-?\d+) target_cpu=(\d+)$",
                     ["comm", "pid", "prio", "target_cpu"]),
    "sched_process_exec": (r"filename=(.*) pid=(-?\d+) old_pid=(-?\d+)$",
                           ["filename", "pid", "old_pid"]),
    "irq_handler_entry": (r"irq=(-?\d+) name=(.*)$", ["irq", "name"]),
    "softirq_entry": (r"vec=(\d+) \[action=(\w+)\]$", ["vec", ("vec", lambda v: SOFTIRQ[int(v)])]),
    "softirq_exit": (r"vec=(\d+) \[action=(\w+)\]$", ["vec", ("vec", lambda v: SOFTIRQ[int(v)])]),
    "irq_handler_exit": (r"irq=(-?\d+) ret=(\w+)$",
                         ["irq", ("ret", lambda v: "handled" if int(v) == 1 else "unhandled")]),
    "sys_enter_openat": (r"dfd: ([0-9a-f]+), filename: ([0-9a-f]+), flags: ([0-9a-f]+), mode: ([0-9a-f]+)$",
                         [("dfd", "hex"), ("filename", "hex"), ("flags", "hex"), ("mode", "hex")]),
    "sys_exit_openat": (r"(0x[0-9a-f]+)$", [("ret", u64)]),
}


def parse_trace(path):
    cpus = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = TRACE_LINE.match(line.rstrip("\n"))
        if not m:
            continue
        text = m.group(6)
        e = SYS_EXIT.match(text) or SYS_ENTER.match(text)
        if e:
            name = ("sys_exit_" if e.re is SYS_EXIT else "sys_enter_") + e.group(1)
            text = e.group(2)
        elif OTHER.match(text):
            name, text = OTHER.match(text).groups()
        else:
            continue
        cpus.setdefault(int(m.group(3)), []).append(
            (int(m.group(4)) * 1000000 + int(m.group(5)), name, text))
    return cpus


def same_as_kernel(o, k):
    """None when our event o agrees with the kernel's line k, else why not."""
    sec, ns = o[1].split(".")
    us = (int(sec) * 1000000000 + int(ns) + 500) // 1000
    name = o[2].split("/", 1)[1]
    if o[2] == "ftrace/print":
        # "SYMBOL: text": the kernel names the caller, not the event
        if us != k[0] or unescape(o[3]) != k[2]:
            return "print at %dus %r vs at %dus %r" % (us, o[3], k[0], k[2])
        return None
    if us != k[0] or name != k[1]:
        return "%s at %dus vs %s at %dus" % (name, us, k[1], k[0])
    if name not in KERNEL_TEXT:
        return None
    regex, fields = KERNEL_TEXT[name]
    m = re.match(regex, k[2])
    if not m:
        return "%s: kernel text %r not understood" % (name, k[2])
    ours = dict(our_fields(o[3]))
    for i, f in enumerate(fields):
        f, how = f if isinstance(f, tuple) else (f, None)
        if f not in ours:
            return "%s: we have no field %s" % (name, f)
        mine, theirs = ours[f], m.group(i + 1)
        if how is u64:
            same = u64(mine) == u64(theirs)
        elif how == "hex":
            same = u64(mine) == int(theirs, 16)
        elif how:
            same = how(mine) == theirs
        else:
            same = same_value(mine, theirs)
        if not same:
            return "%s at %dus: %s=%s vs %s" % (name, us, f, mine, theirs)
    return None


def oracle(ours, kernel):
    bad, events, names = [], 0, set()
    for cpu in sorted(set(ours) | set(kernel)):
        o = [e for e in ours.get(cpu, []) if e[0] == "ev"]
        k = kernel.get(cpu, [])
        if len(o) != len(k):
            bad.append("cpu%d: %d events vs %d in trace" % (cpu, len(o), len(k)))
            continue
        for i, (oe, ke) in enumerate(zip(o, k)):
            why = same_as_kernel(oe, ke)
            if why:
                bad.append("cpu%d event %d: %s" % (cpu, i, why))
                break
            events += 1
            names.add(ke[1])
    return bad, events, names


def merged(merged_path, percpu_path, late=None):
    bad, last, items, back = [], None, [], 0
    for line in open(merged_path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) < 3 or "/" not in parts[2]:
            continue
        sec, ns = parts[1].split(".")
        ts = int(sec) * 1000000000 + int(ns)
        if last is not None and ts < last:
            back += 1
            if late is None and back == 1:
                bad.append("went back in time: %s after %d" % (line.strip(), last))
        last = max(ts, last or 0)
        items.append((parts[0], parts[2], parts[3] if len(parts) > 3 else ""))
    other = []
    for line in open(percpu_path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) >= 3 and "/" in parts[2]:
            other.append((parts[0], parts[2], parts[3] if len(parts) > 3 else ""))
    if sorted(items) != sorted(other):
        a, b = set(items) - set(other), set(other) - set(items)
        bad.append("not the same events: %d merged, %d per CPU; only merged: %s; only per CPU: %s" % (
            len(items), len(other), sorted(a)[:2], sorted(b)[:2]))
    if len(set(items)) != len(items):
        bad.append("an event twice in the merged stream")
    if late is not None and back != late:
        bad.append("%d lines stamped before an earlier one; trace_stream reported %d" % (back, late))
    return bad, len(items), back


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--oracle":
        bad, events, names = oracle(parse_ours(args[1]), parse_trace(args[2]))
        if bad or not events:
            print("; ".join(bad[:5]) or "no events to compare")
            sys.exit(1)
        print("same as the kernel: %d events (%s)" % (events, " ".join(sorted(names))))
        return
    late = None
    if len(args) == 5 and args[0] == "--merged" and args[3] == "--late":
        if not args[4].isdigit():
            sys.exit("--late: '%s' is not a count" % args[4])
        late, args = int(args[4]), args[:3]
    if len(args) == 3 and args[0] == "--merged":
        bad, events, back = merged(args[1], args[2], late)
        if bad or not events:
            print("; ".join(bad[:5]) or "no events to compare")
            sys.exit(1)
        if late is None:
            print("in order, same multiset: %d events" % events)
        else:
            print("same multiset: %d events, %d stamped before an earlier one, as reported" % (events, back))
        return
    if len(args) != 2:
        sys.exit("usage: tracedat_compare.py [--oracle|--merged] OURS OTHER [--late N]")
    bad, events, losses = compare(parse_ours(args[0]), parse_tc(args[1]))
    if bad:
        print("; ".join(bad[:5]))
        sys.exit(1)
    if not events:
        print("no events to compare")
        sys.exit(1)
    print("same: %d events, %d losses" % (events, losses))


if __name__ == "__main__":
    main()
