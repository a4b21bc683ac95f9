#!/usr/bin/env python3
"""Draws the side-by-side benchmark as an SVG: per test, requests/s (left) and p99 latency
(right) of TIL and each peer, with the physical references (nginx `return 200` for /health,
pgbench -S prepared for one acronym) drawn as dashed lines where they apply.

    bench-chart.py RESULTS_DIR OUT.svg [REFS_DIR]

RESULTS_DIR holds til.json, hummingbird.json, vapor.json (../shared/bench/run.sh output);
REFS_DIR (default: RESULTS_DIR) may hold nginx.json and pgbench.json (bench/refs.sh output).
Each test gets its own scale: the longest bar is that test's best, so shapes compare
within a test and the numbers printed beside the bars compare across.
"""
import json
import os
import sys
from html import escape

TESTS = [("hello", "GET /health"), ("acronyms_list", "list of 100 acronyms"), ("acronym_get", "one acronym"),
         ("user_get", "one user"), ("acronym_create", "bearer create"), ("login", "logins (bcrypt 12)"),
         ("acronym_get_during_logins", "one acronym during logins")]
SERVERS = [("til", "TIL", "#d9480f"), ("hummingbird", "Hummingbird 2", "#1c7ed6"), ("vapor", "Vapor 4", "#7048e8")]
BAR, GAP, LEFT, PANEL, P99_X = 14, 26, 200, 330, 600


def first_runs(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    for row in doc.get("results", []):
        if "name" in row:
            runs.setdefault(row["name"], row)
    return runs


def references(folder):
    refs = {}
    nginx = first_runs(os.path.join(folder, "nginx.json"))
    if nginx and "nginx_return" in nginx:
        refs["hello"] = ("nginx return", nginx["nginx_return"]["rps"])
    path = os.path.join(folder, "pgbench.json")
    if os.path.exists(path):
        with open(path) as f:
            prepared = [r["tps"] for r in json.load(f).get("results", []) if r.get("mode") == "prepared"]
        if prepared:
            refs["acronym_get"] = ("pgbench -S prepared", max(prepared))
    return refs


def main():
    results, out = sys.argv[1], sys.argv[2]
    refs = references(sys.argv[3] if len(sys.argv) > 3 else results)
    servers = [(key, name, color, first_runs(os.path.join(results, f"{key}.json"))) for key, name, color in SERVERS]
    servers = [s for s in servers if s[3]]
    if not servers:
        sys.exit("no results in " + results)
    rows = []
    y = 60
    for test, title in TESTS:
        present = [(name, color, data[test]) for _, name, color, data in servers if test in data]
        if not present:
            continue
        best_rps = max([r["rps"] for _, _, r in present] + ([refs[test][1]] if test in refs else []))
        worst_p99 = max(r["p99_ms"] for _, _, r in present)
        rows.append(f'<text x="10" y="{y + BAR}" class="test">{escape(title)}</text>')
        for index, (name, color, run) in enumerate(present):
            top = y + index * BAR
            width = PANEL * run["rps"] / best_rps
            rows.append(f'<rect x="{LEFT}" y="{top}" width="{width:.1f}" height="{BAR - 2}" fill="{color}"/>')
            rows.append(f'<text x="{LEFT + width + 4:.1f}" y="{top + BAR - 4}">{run["rps"]:,.1f}</text>')
            p99 = PANEL * 0.6 * run["p99_ms"] / worst_p99
            rows.append(f'<rect x="{P99_X}" y="{top}" width="{p99:.1f}" height="{BAR - 2}" fill="{color}" opacity="0.55"/>')
            rows.append(f'<text x="{P99_X + p99 + 4:.1f}" y="{top + BAR - 4}">{run["p99_ms"]:.1f} ms</text>')
        height = len(present) * BAR
        if test in refs:
            label, value = refs[test]
            x = LEFT + PANEL * value / best_rps
            rows.append(f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x:.1f}" y2="{y + height + 2}" class="ref"/>')
            rows.append(f'<text x="{x - 4:.1f}" y="{y - 6}" class="reflabel">{escape(label)} {value:,.0f}</text>')
        y += height + GAP
    legend = []
    for index, (_, name, color, _) in enumerate(servers):
        legend.append(f'<rect x="{LEFT + index * 140}" y="{y}" width="12" height="12" fill="{color}"/>'
                      f'<text x="{LEFT + index * 140 + 16}" y="{y + 11}">{escape(name)}</text>')
    svg = f'''<svg xmlns="http://www.w3.org/2000/svg" width="{P99_X + 320}" height="{y + 30}" font-family="sans-serif" font-size="11">
<style>.test{{font-weight:bold}} .head{{font-size:13px;font-weight:bold}} .ref{{stroke:#333;stroke-dasharray:4 3}} .reflabel{{text-anchor:end;font-style:italic}}</style>
<rect width="100%" height="100%" fill="white"/>
<text x="{LEFT}" y="24" class="head">requests/s (longer is better; scale per test)</text>
<text x="{P99_X}" y="24" class="head">p99 latency (shorter is better)</text>
{chr(10).join(rows)}
{chr(10).join(legend)}
</svg>
'''
    with open(out, "w") as f:
        f.write(svg)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
