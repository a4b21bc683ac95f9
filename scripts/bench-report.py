#!/usr/bin/env python3
"""Writes the side-by-side tables of TIL, Vapor and Hummingbird and TIL's ratios into
Benchmarks/RESULTS.md, between the markers of the section "API, side by side".

    bench-report.py RESULTS_DIR RESULTS_MD
"""
import json
import os
import sys

BEGIN = "<!-- bench-compare:begin -->"
END = "<!-- bench-compare:end -->"
TESTS = ["hello", "acronyms_list", "acronym_get", "user_get", "acronym_create", "login", "acronym_get_during_logins"]


def load(folder, label):
    path = os.path.join(folder, f"{label}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    for row in doc["results"]:
        runs.setdefault(row["name"], row)  # first run of each test (RSS before the POST test grew it)
    return doc["meta"], runs


def fmt(row, key, spec):
    return spec % row[key] if row and row.get(key) is not None else "-"


def main():
    folder, md = sys.argv[1], sys.argv[2]
    servers = {label: load(folder, label) for label in ("til", "vapor", "hummingbird")}
    lines = [BEGIN, ""]
    dates = ", ".join(f"{k}: {v[0]['date']}" for k, v in servers.items() if v)
    lines.append(f"Runs: {dates}. 2 wrk threads, 10 s per test, 64 connections (login 8, during-logins 16).")
    lines.append("")
    lines.append("| test | server | req/s | p50 ms | p99 ms | non-2xx | RSS MiB |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    for test in TESTS:
        for label, data in servers.items():
            row = data[1].get(test) if data else None
            if not row:
                continue
            rss = "%.1f" % (row["rss_kib"] / 1024) if row.get("rss_kib") else "-"
            lines.append(f"| {test} | {label} | {fmt(row, 'rps', '%.1f')} | {fmt(row, 'p50_ms', '%.2f')} | "
                         f"{fmt(row, 'p99_ms', '%.2f')} | {row.get('non2xx', 0)} | {rss} |")
    lines.append("")
    if servers["til"]:
        lines.append("TIL against the stronger peer on each test (req/s ratio; p99 TIL/peer, lower is better):")
        lines.append("")
        lines.append("| test | stronger peer | req/s ratio | p99 ratio |")
        lines.append("|---|---|---:|---:|")
        til = servers["til"][1]
        for test in TESTS:
            peers = [(label, data[1].get(test)) for label, data in servers.items() if label != "til" and data and data[1].get(test)]
            if not peers or test not in til:
                continue
            name, best = max(peers, key=lambda p: p[1]["rps"])
            lines.append(f"| {test} | {name} | {til[test]['rps'] / best['rps']:.2f}x | {til[test]['p99_ms'] / best['p99_ms']:.2f} |")
        lines.append("")
    lines.append(END)
    block = "\n".join(lines)
    text = open(md).read() if os.path.exists(md) else "# Benchmarks\n\n## API, side by side\n\n"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    with open(md, "w") as f:
        f.write(text)
    print(block)


if __name__ == "__main__":
    main()
