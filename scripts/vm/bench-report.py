#!/usr/bin/env python3
"""scripts/vm/bench-report.py RESULTS.jsonl [--json OUT] [--markdown OUT] — the live-path
benchmark's table (scripts/vm/bench.sh writes RESULTS): per workload and program, CPU seconds
during the playback and their ratio to lisgd's, wakeups during it and while idle, RSS, and
gestured's frame latency. --json writes {"date", "runs": [...], "cpu_vs_lisgd": {...}}."""
import argparse
import datetime
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    all_runs = [json.loads(line) for line in open(args.results) if line.strip()]
    if not all_runs:
        sys.exit("bench-report: no results in " + args.results)
    # A program played a workload several times: its median run by CPU stands for it, with
    # the spread beside it.
    groups = {}
    for r in all_runs:
        groups.setdefault((r["workload"], r["program"]), []).append(r)
    runs = []
    for group in groups.values():
        ordered = sorted(group, key=lambda r: r["cpu_s"])
        median = dict(ordered[(len(ordered) - 1) // 2])
        median["cpu_runs"] = [r["cpu_s"] for r in group]
        runs.append(median)
    lisgd = {r["workload"]: r["cpu_s"] for r in runs if r["program"] == "lisgd"}
    quiet = {r["workload"]: r["cpu_s"] for r in runs if r["program"] == "gestured"}
    ratios = {}
    for r in runs:
        base = lisgd.get(r["workload"])
        r["cpu_vs_lisgd"] = round(r["cpu_s"] / base, 3) if base else None
        if r["program"].startswith("gestured"):
            ratios.setdefault(r["workload"], {})[r["program"]] = r["cpu_vs_lisgd"]
    lines = [
        "| workload | program | playback s | CPU s | × lisgd | user / system s | wakeups | idle wakeups | RSS MB (peak) | frame latency p50 / p99 µs | of which after the wakeup | gesture latency p50 / p99 µs |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        lat = r.get("latency") or None
        frame = processing = gesture = "–"
        if lat:
            def pair(h):
                return f"{h['p50_us']} / {h['p99_us']}" if h["count"] else "–"
            frame, processing, gesture = pair(lat["frame"]), pair(lat["processing"]), pair(lat["gesture"])
        ratio = "–" if r["cpu_vs_lisgd"] is None else f"{r['cpu_vs_lisgd']:.2f}"
        cpu = f"{r['cpu_s']:.3f}"
        if len(r["cpu_runs"]) > 1:
            cpu += f" (median of {len(r['cpu_runs'])}: {min(r['cpu_runs']):.3f}–{max(r['cpu_runs']):.3f})"
        split = f"{r['user_s']:.2f} / {r['system_s']:.2f}" if r.get("user_s") is not None else "–"
        lines.append(
            f"| {r['workload']} | {r['program']} | {r['playback_s']:.2f} | {cpu} | {ratio} | {split} | {r['wakeups']} | "
            f"{r['idle_wakeups']} in {r['idle_s']} s | {r['rss_kb'] / 1024:.1f} ({r['peak_rss_kb'] / 1024:.1f}) | {frame} | {processing} | {gesture} |")
    table = "\n".join(lines) + "\n"
    notes = []
    for workload, q in quiet.items():
        json_row = next((r for r in runs if r["workload"] == workload and r["program"] == "gestured --json"), None)
        if json_row and q:
            notes.append(f"{workload}: gestured --json / gestured = {json_row['cpu_s'] / q:.2f}")
    if notes:
        table += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    if args.markdown:
        open(args.markdown, "w").write(table)
    if args.json:
        json.dump({"date": datetime.date.today().isoformat(), "runs": runs, "all_runs": all_runs, "cpu_vs_lisgd": ratios},
                  open(args.json, "w"), indent=2)
    print(table, end="")


if __name__ == "__main__":
    main()
