"""Drill 1: PostgreSQL stopped for 10 s under wrk load, then started again.

Passes when requests that need the database get 503 (no 500, no wrk timeout, no measured
request slower than the acquire timeout), /health stays 200, /ready turns 503 and back,
requests succeed again within 2 s of PostgreSQL's return, the server's log stays
rate-limited (at most 3 lines a second of outage), and it tries PostgreSQL at most about
once a second meanwhile (connect() calls counted with strace over 4 s of the outage).
"""
import os
import re
import shutil
import subprocess
import threading
import time

import support

OUTAGE_SECONDS = 10
ACQUIRE_TIMEOUT = 5.0
PROBE_WINDOW = 4  # seconds of the outage in which connects to PostgreSQL are counted
# The access log (one line per request, info level in development) is not what is rate-limited.
ACCESS_LINE = re.compile(r"\[Web\] [A-Z]+ /\S* \d{3} ")


class Poller(threading.Thread):
    """Polls /health and /ready every 100 ms on fresh connections: (time, health, ready)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.samples, self.stopping = port, [], threading.Event()

    def run(self):
        while not self.stopping.wait(0.1):
            self.samples.append((time.monotonic(), support.get(self.port, "/health", 3)[0], support.get(self.port, "/ready", 3)[0]))

    def stop(self):
        self.stopping.set()
        self.join(timeout=8)


def count_connects(server, seconds):
    """connect() calls from til-server to PostgreSQL's port over `seconds` (strace attached
    for that window only; it slows the server a little). None without strace."""
    if shutil.which("strace") is None:
        return None
    trace = os.path.join(support.OUT, "connects.strace")
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=connect", "-o", trace, "-p", str(server.process.pid)])
    time.sleep(seconds)
    tracer.terminate()
    tracer.wait(timeout=10)
    port = support.database_port()
    return sum(1 for line in open(trace) if f"htons({port})" in line)


def run():
    server = support.Server("database-gone")
    path = f"/api/acronyms/{server.acronym_id}"
    measurer, poller = support.Measurer(server.port, path), Poller(server.port)
    try:
        measurer.start()
        poller.start()
        load = support.wrk(server.port, path, seconds=OUTAGE_SECONDS + 8)
        time.sleep(2)
        offset = server.log_size()
        stopped = time.monotonic()
        support.postgres("stop")
        time.sleep(3)
        probes = count_connects(server, seconds=PROBE_WINDOW)
        time.sleep(OUTAGE_SECONDS - 3 - PROBE_WINDOW)
        log_lines = sum(1 for line in server.log_lines_since(offset) if " til: " in line and not ACCESS_LINE.search(line))
        support.postgres("start")
        back = time.monotonic()
        outage = back - stopped
        counts = support.wrk_counts(load)
        time.sleep(1)
    finally:
        measurer.stop()
        poller.stop()
        support.postgres("start")
        status, _ = server.stop()

    failures = [s for s in measurer.samples if s[1] != 200]
    after = [s for s in measurer.samples if s[1] == 200 and s[0] >= max((f[0] for f in failures), default=back)]
    recovery = max(0.0, after[0][0] - back) if after else float("inf")
    ready_back = [p[0] for p in poller.samples if p[0] >= back and p[2] == 200]
    ready_gap = ready_back[0] - back if ready_back else float("inf")
    slowest = max((s[2] for s in measurer.samples), default=0)
    health_bad = sum(1 for p in poller.samples if p[1] != 200)
    ready_503 = sum(1 for p in poller.samples if stopped < p[0] < back and p[2] == 503)
    server_errors = sum(n for code, n in counts.items() if isinstance(code, int) and code >= 500 and code != 503)
    measured_bad = sum(1 for s in measurer.samples if s[1] not in (200, 503))
    checks = {
        "no 5xx but 503": server_errors == 0 and measured_bad == 0,
        "no hang": counts["errors"] == 0 and slowest <= ACQUIRE_TIMEOUT + 0.5,
        "503 during outage": counts.get(503, 0) > 0,
        "/health 200 throughout": health_bad == 0,
        "/ready 503 then 200": ready_503 > 0 and ready_gap <= 2,
        "recovers within 2 s": recovery <= 2,
        "log rate-limited": log_lines <= 3 * outage,
        "reconnects backed off (<= 1 probe/s)": probes is None or probes <= PROBE_WINDOW + 1,
    }
    figures = (f"outage {outage:.1f} s; wrk {counts.get('requests', 0)} req: {counts.get(200, 0)}×200, "
               f"{counts.get(503, 0)}×503, {server_errors}×other 5xx, {counts['errors']} errors/timeouts, max latency {counts.get('max_latency')}; "
               f"measurer {support.describe(measurer.summary())}; recovery {recovery:.2f} s "
               f"(/ready {ready_gap:.2f} s); /health non-200 {health_bad}; non-access log lines in outage {log_lines}; connects to PostgreSQL in {PROBE_WINDOW} s of outage {probes}; exit {status}")
    return support.outcome("Database gone (10 s stop under load)", checks, figures)


if __name__ == "__main__":
    print(run())
