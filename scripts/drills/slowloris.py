"""Drill 4: slowloris (slowhttptest -H) with 1,000 connections for 20 s.

Passes when the measuring client's p99 stays under 50 ms with no errors during the attack,
and the server's open descriptors are back to their baseline (+2) within 15 s after it.
Needs Debian's slowhttptest (`apt-get install slowhttptest`); without it the drill fails.
"""
import os
import re
import resource
import shutil
import subprocess
import time

import support

CONNECTIONS = 1000
SECONDS = 20


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


def run():
    if shutil.which("slowhttptest") is None:
        raise RuntimeError("slowhttptest is not installed (apt-get install slowhttptest)")
    server = support.Server("slowloris")
    path = f"/api/acronyms/{server.acronym_id}"
    measurer = support.Measurer(server.port, path)
    try:
        time.sleep(0.5)
        baseline = support.descriptors(server.process.pid)
        measurer.start()
        started = time.monotonic()
        report = open(os.path.join(support.OUT, "slowhttptest.out"), "w+")
        attack = subprocess.Popen(
            ["slowhttptest", "-H", "-c", str(CONNECTIONS), "-r", "500", "-i", "10", "-l", str(SECONDS), "-s", "8192",
             "-x", "24", "-p", "3", "-u", f"http://127.0.0.1:{server.port}{path}"],
            stdout=report, stderr=subprocess.STDOUT, preexec_fn=raise_descriptor_limit)
        peak, deadline = baseline, started + SECONDS + 40
        while attack.poll() is None and time.monotonic() < deadline:
            peak = max(peak, support.descriptors(server.process.pid))
            time.sleep(0.5)
        if attack.poll() is None:
            attack.kill()
            attack.wait()
        attack.wait()
        report.seek(0)
        output = re.sub(r"\x1b\[[0-9;]*m", "", report.read())
        report.close()
        ended = time.monotonic()
        connected = max((int(n) for n in re.findall(r"connected:\s+(\d+)", output)), default=0)
        during = measurer.summary(since=started, until=ended)
        deadline, after = time.monotonic() + 15, support.descriptors(server.process.pid)
        while after > baseline + 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            after = support.descriptors(server.process.pid)
    finally:
        measurer.stop()
        status, _ = server.stop()

    errors = sum(n for code, n in during["statuses"].items() if code != 200)
    checks = {"p99 under 50 ms": during["p99_ms"] < 50, "no measured errors": errors == 0,
              "descriptors back to baseline": after <= baseline + 2}
    figures = (f"{CONNECTIONS} slowloris connections for {SECONDS} s; measurer during attack {support.describe(during)}; "
               f"descriptors baseline {baseline}, after {after}; peak {peak}; slowhttptest peak connected {connected}; exit {status}")
    return support.outcome("Slowloris (1,000 connections, 20 s)", checks, figures)


if __name__ == "__main__":
    print(run())
