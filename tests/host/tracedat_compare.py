#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare trace_stream's text with trace-cmd report -R -t of a trace.dat.

  tracedat_compare.py OURS TRACECMD

OURS: trace_stream lines "CPU S.NS SYSTEM/EVENT PAYLOAD" and loss lines
"CPU S.NS missed N|unknown ...". TRACECMD: the output of
"trace-cmd report -R -t FILE". Per CPU, both must hold the same events in
the same order with the same timestamps and field values, and a loss where
the sub-buffers record one ("missed N" against "CPU:N [N EVENTS DROPPED]"
or "[EVENTS DROPPED]"). Losses that no sub-buffer records (dropped with
overwrite off, resets, another reader) are not in a trace.dat: they are
skipped. Prints "same: N events, M losses" or the first difference per CPU
(at most 5 lines), and exits 1 on a difference.
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


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tracedat_compare.py OURS TRACECMD")
    bad, events, losses = compare(parse_ours(sys.argv[1]), parse_tc(sys.argv[2]))
    if bad:
        print("; ".join(bad[:5]))
        sys.exit(1)
    if not events:
        print("no events to compare")
        sys.exit(1)
    print("same: %d events, %d losses" % (events, losses))


if __name__ == "__main__":
    main()
