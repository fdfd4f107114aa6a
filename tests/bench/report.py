#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Turn the results of "make bench" into the guide's table and plot.

    report.py BENCH_DIR OUT_DIR

BENCH_DIR holds guest.txt (tests/vm/bench-run.sh: one line per run) and
decoder.txt (tests/bench/decoder.sh). OUT_DIR gets consumers.csv and
decoder.csv (csv-table sources), consumers.svg (the plot) and
summary.txt (the table as text, also printed). Needs Debian's
python3-matplotlib: run with /usr/bin/python3.
"""
import csv
import os
import statistics
import sys

MODES = ("read", "splice", "mmap")
MIB = 1024 * 1024


def die(msg):
    print(f"report.py: {msg}", file=sys.stderr)
    sys.exit(1)


def parse_runs(path):
    runs, header = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                header.append(line[1:].strip())
                continue
            kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
            if "mode" not in kv:
                continue
            run = {k: (v if k == "mode" else int(v)) for k, v in kv.items()}
            run["lost"] = run["produced"] - run["delivered"]
            run["events_s"] = run["delivered"] / (run["wall_ns"] / 1e9)
            run["produced_s"] = run["produced"] / (run["wall_ns"] / 1e9)
            run["cpu_ms_mib"] = run["cpu_ns"] / 1e6 / (run["bytes"] / MIB)
            run["lost_pct"] = 100.0 * run["lost"] / run["produced"]
            runs.append(run)
    if not runs:
        die(f"{path}: no results")
    return runs, header


def spread(values, fmt):
    """median [min-max] of values, with fmt applied to each."""
    return (f"{fmt(statistics.median(values))} "
            f"[{fmt(min(values))}-{fmt(max(values))}]")


def rate_name(rate):
    return "max" if rate == 0 else f"{rate // 1000}k"


def summarise(runs):
    rates = sorted({r["rate"] for r in runs}, key=lambda x: x or 1 << 62)
    reps = sorted({r["rep"] for r in runs})
    by = {(r["rep"], r["rate"], r["mode"]): r for r in runs}
    rows = []
    for rate in rates:
        for mode in MODES:
            mine = [by[(p, rate, mode)] for p in reps if (p, rate, mode) in by]
            if not mine:
                continue
            ratios = [by[(p, rate, mode)]["cpu_ms_mib"] /
                      by[(p, rate, "mmap")]["cpu_ms_mib"]
                      for p in reps if (p, rate, mode) in by and (p, rate, "mmap") in by]
            tput = [by[(p, rate, mode)]["events_s"] /
                    by[(p, rate, "mmap")]["events_s"]
                    for p in reps if (p, rate, mode) in by and (p, rate, "mmap") in by]
            rows.append({
                "rate": rate, "mode": mode, "n": len(mine),
                "offered": statistics.median(r["produced_s"] for r in mine),
                "events_s": [r["events_s"] for r in mine],
                "kevents_s": [r["events_s"] / 1000 for r in mine],
                "lost_pct": [r["lost_pct"] for r in mine],
                "lost": [r["lost"] for r in mine],
                "cpu": [r["cpu_ms_mib"] for r in mine],
                "cpu_ratio": ratios, "tput_ratio": tput,
            })
    return rows


def write_tables(rows, header, out):
    k = lambda v: f"{v / 1000:.0f}k"
    f1 = lambda v: f"{v:.1f}"
    f2 = lambda v: f"{v:.2f}"
    table = [["producer rate", "consumer", "events/s delivered", "events lost",
              "lost %", "CPU ms per MiB", "CPU per MiB / mmap",
              "events/s / mmap"]]
    for r in rows:
        rate = (f"max (~{k(r['offered'])}/s)" if r["rate"] == 0
                else f"{k(r['rate'])}/s")
        table.append([rate, r["mode"], spread(r["events_s"], k),
                      spread(r["lost"], lambda v: f"{v:.0f}"),
                      spread(r["lost_pct"], f1), spread(r["cpu"], f1),
                      spread(r["cpu_ratio"], f2), spread(r["tput_ratio"], f2)])
    with open(os.path.join(out, "consumers.csv"), "w", newline="",
              encoding="utf-8") as f:
        csv.writer(f).writerows(table)
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    text = [f"# {h}" for h in header]
    text += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in table]
    text.append(f"(median [min-max] of {rows[0]['n']} runs each; ratios are "
                "per repetition, against the mmap consumer of the same repetition)")
    return "\n".join(text)


def decoder_table(path, out):
    lines = open(path, encoding="utf-8").read().splitlines()
    kv = [dict(w.split("=", 1) for w in l.split() if "=" in w) for l in lines]
    same = next((d for d in kv if "same_events" in d), None)
    if not same or same["same_events"] != "yes":
        die(f"{path}: the decoders did not decode the same events")
    ns = {d["decoder"]: d for d in kv if "ns_per_event" in d}
    ir = {d["decoder"]: float(d["instructions_per_event"])
          for d in kv if "instructions_per_event" in d}
    table = [["decoder", "ns per event", "instructions per event (callgrind)",
              "ratio to ours (instructions)"]]
    for name, label in (("ours", "examples/tracemap.c"),
                        ("kbuffer", "libtraceevent kbuffer")):
        d = ns[name]
        table.append([label,
                      f"{float(d['ns_per_event']):.1f} [{float(d['min']):.1f}-"
                      f"{float(d['max']):.1f}]",
                      f"{ir[name]:.1f}", f"{ir[name] / ir['ours']:.2f}"])
    with open(os.path.join(out, "decoder.csv"), "w", newline="",
              encoding="utf-8") as f:
        csv.writer(f).writerows(table)
    return (f"decoders: same events ({same['events']} events in "
            f"{same['subbufs']} sub-buffers)\n" +
            "\n".join("  ".join(row) for row in table[1:]))


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "trace-mmap-guide"  # stable ids
    import matplotlib.pyplot as plt

    rates = []
    for r in rows:
        if r["rate"] not in rates:
            rates.append(r["rate"])
    labels = [rate_name(x) for x in rates]
    fig, axes = plt.subplots(2, 2, figsize=(9, 6.4))
    axes = axes.flatten()
    panels = (("cpu", "consumer CPU ms per MiB"),
              ("cpu_ratio", "CPU per MiB, ratio to mmap"),
              ("kevents_s", "events delivered, thousands per second"),
              ("lost_pct", "events lost, %"))
    styles = {"read": ("o", "#1f77b4"), "splice": ("s", "#ff7f0e"),
              "mmap": ("^", "#2ca02c")}
    for ax, (key, title) in zip(axes, panels):
        for i, mode in enumerate(MODES):
            mine = [r for r in rows if r["mode"] == mode]
            xs = [rates.index(r["rate"]) + (i - 1) * 0.08 for r in mine]
            med = [statistics.median(r[key]) for r in mine]
            lo = [m - min(r[key]) for m, r in zip(med, mine)]
            hi = [max(r[key]) - m for m, r in zip(med, mine)]
            marker, color = styles[mode]
            ax.errorbar(xs, med, yerr=[lo, hi], marker=marker, color=color,
                        capsize=3, label=mode)
        ax.set_xticks(range(len(rates)), labels)
        ax.set_xlabel("producer rate, events/s")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "consumers.svg"), metadata={"Date": None})


def main():
    if len(sys.argv) != 3:
        die("usage: report.py BENCH_DIR OUT_DIR")
    bench, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    runs, header = parse_runs(os.path.join(bench, "guest.txt"))
    rows = summarise(runs)
    text = write_tables(rows, header, out)
    if os.path.exists(os.path.join(bench, "decoder.txt")):
        text += "\n\n" + decoder_table(os.path.join(bench, "decoder.txt"), out)
    plot(rows, out)
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
