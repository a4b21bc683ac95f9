"""Drill: 10,000 idle keep-alive connections held open for 20 s while the measuring client runs.

Each connection first makes one real request (`GET /health`, answered keep-alive), so it is
an idle keep-alive connection and not a half-open one; it is then held for 20 s, below the
server's 60 s idle timeout, and a sample of 100 is used again at the end to show they were
still being kept. The server's connection limit is 10,000 by default, which the held
connections plus the measurer's would exceed, so this drill starts it with
`--max-connections 10100` (it raises its own descriptor limit to match; this process raises
its own soft limit to the hard one).

Passes when all 10,000 connections got their 200 and the sample's second request too, the
measuring client saw no error throughout and a p99 under 50 ms while they were held, and
the server's descriptors are back to the baseline (+2) within 15 s after they close.
Reports the server's resident memory per idle connection (VmRSS delta / connections).
"""
import socket
import time

import support

CONNECTIONS = 10_000
HOLD_SECONDS = 20
SAMPLE = 100
REQUEST = b"GET /health HTTP/1.1\r\nHost: drill\r\n\r\n"


def exchange(sock):
    """Sends one keep-alive GET /health on `sock`; its status, or 0 when it failed."""
    try:
        sock.sendall(REQUEST)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                return 0
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next((line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), b"0"))
        while len(body) < length:
            chunk = sock.recv(4096)
            if not chunk:
                return 0
            body += chunk
        return int(head.split(b" ")[1])
    except (OSError, ValueError, IndexError):
        return 0


def open_idle(port, count):
    """`count` connections, each after one answered request; (sockets, statuses histogram)."""
    sockets, statuses = [], {}
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            statuses[0] = statuses.get(0, 0) + 1
            continue
        status = exchange(sock)
        statuses[status] = statuses.get(status, 0) + 1
        sockets.append(sock)
    return sockets, statuses


def run():
    support.raise_descriptor_limit()
    server = support.Server("idle-connections", args=["--max-connections", str(CONNECTIONS + 100)])
    pid = server.process.pid
    measurer = support.Measurer(server.port, f"/api/acronyms/{server.acronym_id}")
    sockets = []
    try:
        measurer.start()
        time.sleep(2)
        baseline, rss_before = support.descriptors(pid), support.resident_kib(pid)
        opening = time.monotonic()
        sockets, statuses = open_idle(server.port, CONNECTIONS)
        held = time.monotonic()
        rss_samples, fd_peak = [], 0
        while time.monotonic() < held + HOLD_SECONDS:
            rss_samples.append(support.resident_kib(pid))
            fd_peak = max(fd_peak, support.descriptors(pid))
            time.sleep(1)
        released = time.monotonic()
        step = max(1, len(sockets) // SAMPLE)
        reused = [exchange(sock) for sock in sockets[::step][:SAMPLE]]
        for sock in sockets:
            sock.close()
        sockets = []
        closed = time.monotonic()
        deadline, after = closed + 15, support.descriptors(pid)
        while after > baseline + 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            after = support.descriptors(pid)
        rss_after = support.resident_kib(pid)
    finally:
        for sock in sockets:
            sock.close()
        measurer.stop()
        status, _ = server.stop()

    rss_held = sum(rss_samples) / len(rss_samples)
    per_connection = (rss_held - rss_before) * 1024 / CONNECTIONS
    hold = measurer.summary(since=held, until=released)
    whole = measurer.summary()
    errors = sum(n for code, n in whole["statuses"].items() if code != 200)
    checks = {"all connections answered 200": statuses.get(200, 0) == CONNECTIONS,
              "kept alive through the hold": reused.count(200) == len(reused),
              "p99 under 50 ms while held": hold["p99_ms"] < 50, "no measured errors": errors == 0,
              "descriptors back to baseline": after <= baseline + 2}
    figures = (f"{statuses.get(200, 0)} of {CONNECTIONS} connections answered 200 and held {HOLD_SECONDS} s "
               f"(opened in {held - opening:.1f} s; server --max-connections {CONNECTIONS + 100}); "
               f"{reused.count(200)} of {len(reused)} reused at the end got 200; "
               f"RSS {rss_before / 1024:.1f} MiB before, {rss_held / 1024:.1f} MiB held, {rss_after / 1024:.1f} MiB after closing: "
               f"{per_connection / 1024:.1f} KiB per idle connection; descriptors baseline {baseline}, peak {fd_peak}, after {after}; "
               f"measurer while held {support.describe(hold)}, whole drill {support.describe(whole)}; exit {status}")
    return support.outcome(f"{CONNECTIONS:,} idle keep-alive connections", checks, figures)


if __name__ == "__main__":
    print(run())
