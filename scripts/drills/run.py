"""Runs the reliability drills in order (`make drills`), prints each outcome, writes the table
in RELIABILITY.md's "Drills (make drills)" section, and exits 1 if any drill failed.
DRILLS=database_gone,shutdown runs a subset (their rows replace theirs in the table, the others
stay); SOAK_SECONDS,
GARBAGE_FUZZ_SECONDS and SOCKET_FUZZ_SECONDS shorten the long ones (see soak.py, garbage.py)."""
import datetime
import os
import re
import sys
import traceback

import database_gone
import garbage
import idle_connections
import mail
import shutdown
import slow_clients
import soak
import support
import terminate_backends

# In order; each value has a `run()`. The slow ones (soak, garbage) come last.
ALL = {"database_gone": database_gone, "terminate_backends": terminate_backends, "shutdown": shutdown,
       "slowloris": slow_clients.SLOWLORIS, "slow_body": slow_clients.SLOW_BODY, "slow_read": slow_clients.SLOW_READ,
       "idle_connections": idle_connections, "mail": mail, "soak": soak, "garbage": garbage}
SECTION = "## Drills (make drills)"


def write_table(rows):
    """Each drill run replaces its own row (by drill name); the rows of drills not run stay."""
    path = os.path.join(support.ROOT, "RELIABILITY.md")
    text = open(path).read()
    pattern = re.compile(r"<!-- drills-table:.*?<!-- /drills-table -->", re.S)
    kept = {}  # drill name -> its line, in the table's order
    existing = pattern.search(text)
    for line in (existing.group(0).splitlines()[3:-1] if existing else []):
        cells = line.split(" | ")
        if len(cells) >= 5:
            kept[cells[2]] = line
    for row in rows:
        result = "pass" if row["passed"] else "FAIL: " + ", ".join(row["failed_checks"])
        kept[row["name"]] = f"| {row['date']} | {row['machine']} | {row['name']} | {result} | {row['figures'].replace('|', '/')} |"
    lines = ["| Date (UTC) | Machine | Drill | Result | Figures |", "|---|---|---|---|---|", *kept.values()]
    table = "<!-- drills-table: written by scripts/drills/run.py -->\n" + "\n".join(lines) + "\n<!-- /drills-table -->"
    if pattern.search(text):
        text = pattern.sub(lambda _: table, text)
    else:
        text = text.rstrip("\n") + f"\n\n{SECTION}\n\n{table}\n"
    open(path, "w").write(text)


def main():
    names = [n for n in os.environ.get("DRILLS", ",".join(ALL)).split(",") if n]
    rows = []
    for name in names:
        machine = support.machine()
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        print(f"== {name} ({machine})", flush=True)
        try:
            row = ALL[name].run()
        except Exception as error:  # a drill that breaks is a failed drill, reported as such
            traceback.print_exc()
            row = {"name": name, "passed": False, "figures": f"drill error: {error}", "failed_checks": ["ran to completion"]}
        row.update(date=date, machine=machine)
        print(("PASS " if row["passed"] else "FAIL ") + row["figures"], flush=True)
        rows.append(row)
    write_table(rows)
    support.postgres("stop")  # the drills' own cluster; its data stays in .drills/pgdata for the next run
    sys.exit(0 if all(row["passed"] for row in rows) else 1)


if __name__ == "__main__":
    main()
