"""Slow-client drills: slowhttptest (Debian package) with 1,000 connections in three modes,
each running longer than the server timeout meant to cut it:

- slowloris (`-H`, 45 s): request heads sent a header line every 10 s, cut by the 30 s read
  timeout (408);
- slow body, R-U-Dead-Yet (`-B`, 45 s): a POST declaring 8 KiB of body sent 24 bytes every
  10 s, cut by the 30 s read timeout (408);
- slow read (`-X`, 75 s): `GET /api/acronyms?limit=500` (about 77 KB, rows seeded) with a
  receive window of 512-1,024 bytes, 32 bytes read every 5 s. On loopback the kernel's send
  buffer grows to ~3.9 MB and takes the whole response at once, so nothing waits in the server
  for the 30 s write-stall timeout; the connection is then idle, and the 60 s idle timeout
  cuts it (the kernel keeps sending what it holds).

Each passes when the measuring client's p99 stays under 50 ms with no errors during the
attack, at least 90 % of the slow connections are closed by the server before slowhttptest's
own end, and the server's open descriptors, less its database connections (the pool may grow
under the attack and keep them), are back to their baseline (+2) within 15 s.
"""
import os
import re
import shutil
import subprocess
import time

import support

CONNECTIONS = 1000
LIST_ROWS = 500  # rows seeded for, and listed by, the slow-read attack


def seed_acronyms(server, count):
    """Makes sure at least `count` acronyms exist (rows from earlier runs count)."""
    have = int(support.psql(server.url_db, "SELECT count(*) FROM acronyms"))
    if have < count:
        support.psql(server.url_db, f"""INSERT INTO acronyms (id, short, long, user_id)
            SELECT gen_random_uuid(), 'SR' || i, 'Slow read seed row number ' || i, (SELECT id FROM users WHERE username = 'admin')
            FROM generate_series(1, {count - have}) AS i""")
    return f"/api/acronyms?limit={count}"


class SlowAttack:
    """One slowhttptest mode against its own til-server; `run()` is the drill."""

    def __init__(self, key, title, flags, cut_by, seconds=45, target=None):
        self.key, self.title, self.flags, self.cut_by, self.seconds = key, title, flags, cut_by, seconds
        self.target = target or (lambda server: f"/api/acronyms/{server.acronym_id}")

    def run(self):
        if shutil.which("slowhttptest") is None:
            raise RuntimeError("slowhttptest is not installed (apt-get install slowhttptest)")
        server = support.Server(self.key)
        pid = server.process.pid
        measurer = support.Measurer(server.port, f"/api/acronyms/{server.acronym_id}")
        try:
            url = f"http://127.0.0.1:{server.port}{self.target(server)}"
            measurer.start()
            time.sleep(1)  # the baseline includes the measurer's connection and its pooled database connection
            baseline, baseline_all = support.descriptors_but_database(pid), support.descriptors(pid)
            early_before = support.early_responses(server.port)
            rss_before = support.resident_kib(pid)
            started = time.monotonic()
            report = open(os.path.join(support.OUT, f"slowhttptest-{self.key}.out"), "w+")
            attack = subprocess.Popen(
                ["slowhttptest", *self.flags, "-c", str(CONNECTIONS), "-r", "500", "-l", str(self.seconds), "-p", "3", "-u", url],
                stdout=report, stderr=subprocess.STDOUT, preexec_fn=support.raise_descriptor_limit)
            timeline, peak_rss, deadline = [], rss_before, started + self.seconds + 30  # timeline: (seconds, descriptors)
            while attack.poll() is None and time.monotonic() < deadline:
                timeline.append((time.monotonic() - started, support.descriptors(pid)))
                peak_rss = max(peak_rss, support.resident_kib(pid))
                time.sleep(0.5)
            if attack.poll() is None:
                attack.kill()
            attack.wait()
            ended = time.monotonic()
            during = measurer.summary(since=started, until=ended)
            deadline, after = time.monotonic() + 15, support.descriptors_but_database(pid)
            while after > baseline + 2 and time.monotonic() < deadline:
                time.sleep(0.5)
                after = support.descriptors_but_database(pid)
            timeline.append((time.monotonic() - started, support.descriptors(pid)))
            early = {code: n - early_before.get(code, 0) for code, n in support.early_responses(server.port).items()}
            report.seek(0)
            output = re.sub(r"\x1b\[[0-9;]*m", "", report.read())
            report.close()
        finally:
            measurer.stop()
            status, _ = server.stop()

        # When the server cut them: from its own descriptors (slowhttptest cannot always tell:
        # a slow reader sees the close only after the bytes before it, which it never reads).
        peak = max((n for _, n in timeline), default=baseline_all)
        peak_at = next((t for t, n in timeline if n == peak), 0)
        held = peak - baseline_all
        after_peak = [(t, n) for t, n in timeline if t >= peak_at]
        cut_at = next((t for t, n in after_peak if n <= baseline_all + 0.9 * held), None)
        cut_end = next((t for t, n in after_peak if n <= baseline_all + 0.1 * held), None)
        cut = peak - min((n for _, n in after_peak), default=peak)
        ending = (re.findall(r"Exit status: ([^\n]+)", output) or ["none"])[-1].strip()
        connected = max((int(n) for n in re.findall(r"connected:\s+(\d+)", output)), default=0)
        errors = sum(n for code, n in during["statuses"].items() if code != 200)
        checks = {"p99 under 50 ms": during["p99_ms"] < 50, "no measured errors": errors == 0,
                  "slow connections cut by the server": held >= 0.9 * CONNECTIONS and cut_end is not None,
                  "descriptors back to baseline": after <= baseline + 2}
        when = f"{cut_at:.0f}–{cut_end:.0f} s into the attack" if cut_at is not None and cut_end is not None else "not within the test"
        early_text = ", ".join(f"{code}×{n}" for code, n in sorted(early.items()) if n) or "none"
        figures = (f"slowhttptest {' '.join(self.flags)} -c {CONNECTIONS} -l {self.seconds}: peak connected {connected}; "
                   f"server held {held}, cut {cut} ({self.cut_by}) {when}; slowhttptest ended: {ending}; early answers {early_text}; "
                   f"measurer during attack {support.describe(during)}; descriptors baseline {baseline_all} ({baseline} without "
                   f"database connections), peak {peak}, back to {after} without database connections; RSS {rss_before // 1024} → peak {peak_rss // 1024} MiB; exit {status}")
        return support.outcome(self.title, checks, figures)


SLOWLORIS = SlowAttack("slowloris", f"Slowloris ({CONNECTIONS:,} connections)",
                       ["-H", "-i", "10", "-x", "24"], "read timeout 30 s")
SLOW_BODY = SlowAttack("slow_body", f"Slow body / R-U-Dead-Yet ({CONNECTIONS:,} connections)",
                       ["-B", "-i", "10", "-s", "8192", "-x", "24"], "read timeout 30 s")
SLOW_READ = SlowAttack("slow_read", f"Slow read ({CONNECTIONS:,} connections)",
                       ["-X", "-w", "512", "-y", "1024", "-n", "5", "-z", "32", "-k", "1"], "idle timeout 60 s", seconds=75,
                       target=lambda server: seed_acronyms(server, LIST_ROWS))


if __name__ == "__main__":
    for attack in (SLOWLORIS, SLOW_BODY, SLOW_READ):
        print(attack.run())
