#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The tables and the summary of "make bench-wait" (issue 25 item 4).

    wait-table.py WAIT_TXT OUT_DIR

WAIT_TXT: the guest's lines (tests/vm/bench-wait.sh), "rep=R rate=R bp=B
strategy=S" then seq_consume's key=value line. OUT_DIR gets
wait-steady.csv and wait-max.csv (one row per buffer_percent and way of
waiting, at the steady rate and as fast as the producer can go) and
wait-summary.txt, reStructuredText that the performance page includes:
the choices for throughput, for latency and for trace_stream's default,
made by the rules it states, from these runs. Standard library only.
"""
import csv
import math
import os
import statistics
import sys

from report import result_lines

MIB = 1024 * 1024
# the ways of waiting, in table order, and what the table calls them
STRATEGIES = {
    "spin": "poll(), timeout 0 (busy loop)",
    "block": "block in tracemap_get_reader()",
    "forever": "poll(), no timeout (--interval 0)",
    "poll20": "poll(), 20 ms (--interval 20)",
    "poll100": "poll(), 100 ms (--interval 100)",
    "poll1000": "poll(), 1000 ms (--interval 1000)",
}
# trace_stream's --interval, by the strategy that does the same
INTERVALS = {"forever": 0, "poll20": 20, "poll100": 100, "poll1000": 1000}
DEFAULT_BP = 50  # the kernel's buffer_percent (trace_stream leaves it)
# trace_stream's choice: a median CPU per MiB within this factor of the
# cheapest counts as the same cost (two runs disagreed on which of 100 and
# 1000 ms was the cheaper, and a stalled host only adds CPU time)
TIE = 1.5
# throughput: a buffer_percent loses events less often than another only
# when Fisher's exact test (one-sided) on the runs that lost events gives
# a p-value below this
ALPHA = 0.05
HEAD = ["buffer_percent", "wait", "runs", "CPU ms/MiB", "wake-ups/MiB",
        "signals per run", "events lost (runs with a loss)",
        "latency median (ms)", "latency p99 (ms)", "latency max (ms)"]


def die(msg):
    print(f"wait-table.py: {msg}", file=sys.stderr)
    sys.exit(1)


def parse(path):
    runs = []
    header, lines = result_lines(path, ("strategy", "lat_max_ns"),
                                 ("strategy", "mode"))
    for run, line in lines:
        if run["bad"]:
            die(f"{path}: a run saw {run['bad']} bad events")
        if run["strategy"] not in STRATEGIES:
            die(f"{path}: unknown strategy {run['strategy']}")
        mib = run["bytes"] / MIB
        if not mib:
            die(f"{path}: a run delivered nothing: {line.strip()}")
        run["lost"] = run["produced"] - run["delivered"]
        if run["lost"] != run["missed"]:
            die(f"{path}: {run['lost']} events lost, "
                f"{run['missed']} reported: {line.strip()}")
        run.setdefault("signals", 0)
        run["cpu"] = run["cpu_ns"] / 1e6 / mib
        run["wakes"] = run["sleeps"] / mib
        runs.append(run)
    if not runs:
        die(f"{path}: no runs")
    return runs, header


def med(values):
    return statistics.median(values)


def ms(ns):
    return ns / 1e6


def fmt_ms(v):
    return f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def fmt_range(r, key):
    """median [lowest-highest] of a latency over the runs, in ms"""
    return (f"{fmt_ms(r[key])} [{fmt_ms(r[key + '_lo'])}-"
            f"{fmt_ms(r[key + '_hi'])}]")


def fisher_less(a, n1, b, n2):
    """P(at most a of the a+b runs with a loss fall in the first n1 runs),
    the one-sided p-value of Fisher's exact test"""
    k, n = a + b, n1 + n2
    return sum(math.comb(n1, i) * math.comb(n2, k - i)
               for i in range(0, a + 1) if k - i <= n2) / math.comb(n, k)


def summarise(runs):
    """{(rate, bp, strategy): figures over the repetitions}, in run order"""
    groups = {}
    for r in runs:
        groups.setdefault((r["rate"], r["bp"], r["strategy"]), []).append(r)
    rows = {}
    for key, rs in groups.items():
        cpu = [r["cpu"] for r in rs]
        rows[key] = {
            "runs": len(rs),
            "cpu": med(cpu), "cpu_lo": min(cpu), "cpu_hi": max(cpu),
            "wakes": med([r["wakes"] for r in rs]),
            "lost": med([r["lost"] for r in rs]),
            "lost_runs": sum(1 for r in rs if r["lost"]),
            "lost_share": med([r["lost"] / r["produced"] for r in rs]),
            "sig_lo": min(r["signals"] for r in rs),
            "sig_hi": max(r["signals"] for r in rs),
            "lat_med": ms(med([r["lat_med_ns"] for r in rs])),
            "lat_med_lo": ms(min(r["lat_med_ns"] for r in rs)),
            "lat_med_hi": ms(max(r["lat_med_ns"] for r in rs)),
            "lat_p99": ms(med([r["lat_p99_ns"] for r in rs])),
            "lat_p99_lo": ms(min(r["lat_p99_ns"] for r in rs)),
            "lat_p99_hi": ms(max(r["lat_p99_ns"] for r in rs)),
            "lat_max": ms(max(r["lat_max_ns"] for r in rs)),
        }
    return rows


def table(rows, rate):
    keys = [k for k in rows if k[0] == rate]
    order = list(STRATEGIES)
    keys.sort(key=lambda k: (k[2] != "spin", k[1], order.index(k[2])))
    out = []
    for k in keys:
        r = rows[k]
        out.append([
            "any" if k[2] == "spin" else k[1], STRATEGIES[k[2]], r["runs"],
            f"{r['cpu']:.1f} [{r['cpu_lo']:.1f}-{r['cpu_hi']:.1f}]",
            f"{r['wakes']:.0f}",
            f"{r['sig_lo']}-{r['sig_hi']}" if k[2] in ("block", "forever")
            else "",
            f"{r['lost']:.0f} ({r['lost_runs']})",
            fmt_range(r, "lat_med"), fmt_range(r, "lat_p99"),
            fmt_ms(r["lat_max"]),
        ])
    return out


def name(key):
    bp, s = key[1], key[2]
    if s == "spin":
        return STRATEGIES[s]
    return f"buffer_percent {bp}, {STRATEGIES[s]}"


def figures(r):
    return (f"{r['cpu']:.1f} [{r['cpu_lo']:.1f}-{r['cpu_hi']:.1f}] CPU "
            f"ms/MiB, {r['wakes']:.0f} wake-ups/MiB, "
            f"latency median {fmt_range(r, 'lat_med')} ms, "
            f"max {fmt_ms(r['lat_max'])} ms, "
            f"{r['lost']:.0f} events lost (median; "
            f"{r['lost_runs']} of {r['runs']} runs lost some)")


def overlap(r, q, key):
    """the ranges over the runs of two rows overlap"""
    return r[key + "_lo"] <= q[key + "_hi"] and q[key + "_lo"] <= r[key + "_hi"]


def choose(rows, steady, fast):
    """The three choices and the sentences that give them."""
    lines = []
    waiting = [k for k in rows if k[2] != "spin"]
    percents = sorted({k[1] for k in waiting})
    # throughput: as fast as it can go, the buffer_percent whose runs lost
    # events least often over every way of waiting, if the test separates
    # it from the others; else the ones it does not separate
    lost = {bp: sum(rows[k]["lost_runs"] for k in waiting
                    if k[0] == fast and k[1] == bp) for bp in percents}
    total = {bp: sum(rows[k]["runs"] for k in waiting
                     if k[0] == fast and k[1] == bp) for bp in percents}
    best_bp = min(percents, key=lambda bp: lost[bp])
    counts = ", ".join(f"{bp}: {lost[bp]} of {total[bp]}" for bp in percents)
    worse, tied = [], []
    for bp in percents:
        if bp == best_bp:
            continue
        p = fisher_less(lost[best_bp], total[best_bp], lost[bp], total[bp])
        (worse if p < ALPHA else tied).append(f"{bp} (p = {p:.2g})")
    rule = ("* **For throughput** (the rule: as fast as the producer can go, "
            "the buffer_percent whose runs lost events least often, over "
            "every way of waiting, if it lost events less often than each "
            "other one by Fisher's exact test, one-sided, p below "
            f"{ALPHA}): ")
    if not tied:
        way = min((k for k in waiting if k[0] == fast and k[1] == best_bp),
                  key=lambda k: (rows[k]["lost_runs"], rows[k]["cpu"]))
        lines.append(
            rule + f"buffer_percent {best_bp}. Runs that lost events, by "
            f"buffer_percent: {counts}. Its way of waiting with the fewest "
            f"runs that lost events and the least CPU per MiB: {name(way)}: "
            f"{figures(rows[way])}.")
    else:
        lines.append(
            rule + "none. Runs that lost events, by buffer_percent: "
            f"{counts}. buffer_percent {best_bp} lost events least often, "
            f"but not less often than {', '.join(tied)} by that test"
            + (f"; it did lose less often than {', '.join(worse)}"
               if worse else "") + ".")
    # latency: at the steady rate, no loss in any run, lowest median; the
    # settings whose range of per-run medians overlaps the lowest one's are
    # not told apart from it
    sk = [k for k in waiting if k[0] == steady and not rows[k]["lost_runs"]]
    if sk:
        best_l = min(sk, key=lambda k: (rows[k]["lat_med"], rows[k]["cpu"]))
        near = [k for k in sk if overlap(rows[k], rows[best_l], "lat_med")]
        bps = sorted({k[1] for k in near})
        ways = "; ".join(f"{name(k)}: {fmt_range(rows[k], 'lat_med')} ms, "
                         f"{rows[k]['cpu']:.1f} CPU ms/MiB" for k in near)
        lines.append(
            f"* **For latency** (the rule: at {steady} events/s, no event "
            "lost in any run, the lowest median latency, and with it every "
            "setting whose range of per-run medians overlaps that one's; "
            "the busy loop left out): buffer_percent "
            f"{', '.join(str(b) for b in bps)}. The settings that the runs "
            "do not tell apart, median latency [lowest-highest run]: "
            f"{ways}.")
    else:
        lines.append(f"* **For latency**: every setting lost events at "
                     f"{steady} events/s in some run; no choice made.")
    spin = rows.get((steady, 50, "spin"))
    if spin:
        lines.append(
            f"* The busy loop, for reference, at {steady} events/s: "
            f"{figures(spin)}.")
    # trace_stream: it leaves buffer_percent alone; choose its --interval
    tk = sorted((k for k in waiting if k[1] == DEFAULT_BP
                 and k[2] in INTERVALS and k[0] == steady),
                key=lambda k: INTERVALS[k[2]])
    ok = [k for k in tk if not rows[k]["lost_runs"]]
    if not ok:
        lines.append(
            "* **trace_stream's --interval**: every --interval lost events "
            f"at buffer_percent {DEFAULT_BP} and {steady} events/s in some "
            "run; no choice made.")
        return lines
    least = min(ok, key=lambda k: rows[k]["cpu"])
    cheap = [k for k in ok if rows[k]["cpu"] <= TIE * rows[least]["cpu"]]
    pick = min(cheap, key=lambda k: rows[k]["lat_med"])
    apart = all(rows[pick]["lat_med_hi"] < rows[k]["lat_med_lo"]
                for k in cheap if k != pick)

    def alt(k):
        r = rows[k]
        f = rows.get((fast, k[1], k[2]))
        return (f"--interval {INTERVALS[k[2]]}: "
                f"{r['cpu']:.1f} [{r['cpu_lo']:.1f}-{r['cpu_hi']:.1f}] "
                f"ms/MiB, {r['wakes']:.0f} wake-ups/MiB, latency median "
                f"{fmt_range(r, 'lat_med')} ms, max "
                f"{fmt_ms(r['lat_max'])} ms, {r['lost_runs']} of {r['runs']} "
                "runs lost events"
                + (f"; as fast as the producer can go, {f['lost_runs']} of "
                   f"{f['runs']}" if f else ""))
    rule = ("* **trace_stream's --interval** (the rule: at the kernel's "
            f"buffer_percent {DEFAULT_BP}, which trace_stream does not "
            f"change, and {steady} events/s: of the intervals that lost no "
            "event in any run, those whose median CPU per MiB is at most "
            f"{TIE} times the least count as equally cheap; of these the "
            "one with the "
            "lowest median latency, if its range of per-run medians lies "
            "below every other one's; else 1000, the default before this "
            "measurement)")
    chosen = INTERVALS[pick[2]] if apart else 1000
    lines.append(
        f"{rule} is ``--interval {chosen}``. Equally cheap: "
        f"{', '.join(str(INTERVALS[k[2]]) for k in cheap)}. By interval: "
        f"{'; '.join(alt(k) for k in tk)}.")
    return lines


def write_csv(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEAD)
        w.writerows(rows)


def main():
    if len(sys.argv) != 3:
        print("usage: wait-table.py WAIT_TXT OUT_DIR", file=sys.stderr)
        sys.exit(2)
    runs, header = parse(sys.argv[1])
    rows = summarise(runs)
    rates = sorted({k[0] for k in rows})
    if 0 not in rates or len(rates) != 2:
        die("want two rates: one steady, and 0 (as fast as it can)")
    steady, fast = rates[1], 0
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    write_csv(os.path.join(out, "wait-steady.csv"), table(rows, steady))
    write_csv(os.path.join(out, "wait-max.csv"), table(rows, fast))
    reps = max(r["rep"] for r in runs)
    text = [
        ".. Written by tests/bench/wait-table.py (make bench-wait); "
        "do not edit.", "",
        f"From {len(runs)} runs, {reps} repetitions ({'; '.join(header)}).",
        "",
    ] + choose(rows, steady, fast)
    with open(os.path.join(out, "wait-summary.txt"), "w",
              encoding="utf-8") as f:
        f.write("\n".join(text) + "\n")
    print("\n".join(text[2:]))


if __name__ == "__main__":
    main()
