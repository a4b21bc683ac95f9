"""Drill 3: SIGTERM under a load of authenticated creates.

Passes when every acronym the clients saw created (2xx with an id) is in the database, new
connections are refused within 1 s of the signal, no request started more than 10 ms before
the signal is cut off without an answer (the keep-alive close race is counted, not failed),
and the process exits 0 within the grace period (10 s) plus 1 s.
"""
import http.client
import json
import socket
import threading
import time
import uuid

import support

CREATORS = 8
GRACE_SECONDS = 10
RACE_WINDOW = 0.01  # seconds; see `raced` below


class Creator(threading.Thread):
    """POSTs acronyms on one keep-alive connection until the server is gone (bounded: 30 s)."""

    def __init__(self, port, token, marker):
        super().__init__(daemon=True)
        self.port, self.token, self.marker = port, token, marker
        self.created, self.outcomes = [], []  # outcomes: (start, status or exception name)

    def run(self):
        conn, deadline = None, time.monotonic() + 30
        while time.monotonic() < deadline:
            start = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                    conn.connect()
                conn.request("POST", "/api/acronyms", body=json.dumps({"short": "SD", "long": self.marker}),
                             headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
                response = conn.getresponse()
                body = response.read()
                if 200 <= response.status < 300:
                    self.created.append(json.loads(body)["id"].lower())
                self.outcomes.append((start, response.status))
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except ConnectionRefusedError:
                self.outcomes.append((start, "refused"))
                return
            except (OSError, http.client.HTTPException) as error:
                self.outcomes.append((start, type(error).__name__))
                if conn is not None:
                    conn.close()
                conn = None


def first_refusal(port, since, limit=3.0):
    """Seconds from `since` until a fresh connect is refused (inf if not within `limit`)."""
    while time.monotonic() - since < limit:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                pass
        except ConnectionRefusedError:
            return time.monotonic() - since
        except OSError:
            pass
        time.sleep(0.02)
    return float("inf")


def run():
    server = support.Server("shutdown")
    marker = f"drill-shutdown-{uuid.uuid4().hex[:12]}"
    measurer = support.Measurer(server.port, f"/api/acronyms/{server.acronym_id}")
    creators = [Creator(server.port, server.token, marker) for _ in range(CREATORS)]
    try:
        measurer.start()
        for creator in creators:
            creator.start()
        time.sleep(3)
        signalled = time.monotonic()
        server.process.send_signal(support.signal.SIGTERM)
        refused_after = first_refusal(server.port, signalled)
        status, _ = server.stop(timeout=GRACE_SECONDS + 5, signalled=True)
        took = time.monotonic() - signalled
    finally:
        if server.process.poll() is None:  # the drill itself broke: never leave the server behind
            server.stop()
        for creator in creators:
            creator.join(timeout=20)
        measurer.stop()

    seen = {i for creator in creators for i in creator.created}
    stored = set(support.psql(server.url_db, f"SELECT id FROM acronyms WHERE long = '{marker}'").lower().split())
    missing = seen - stored
    outcomes = [o for creator in creators for o in creator.outcomes]
    unanswered = [o for o in outcomes if o[0] < signalled and not isinstance(o[1], int)]
    # A request sent on an idle keep-alive connection within RACE_WINDOW of the signal may meet
    # the server's close of that idle connection before it arrives (the client then sees a
    # broken pipe or reset): HTTP's keep-alive close race, reported apart. One sent earlier
    # had reached the server, and must be answered.
    raced = [o for o in unanswered if signalled - o[0] <= RACE_WINDOW]
    cut_off = [o for o in unanswered if signalled - o[0] > RACE_WINDOW]
    after_signal_ok = sum(1 for o in outcomes if o[0] >= signalled and isinstance(o[1], int) and o[1] < 300)
    detail = ", ".join(f"{o[1]} {(signalled - o[0]) * 1000:.1f} ms before" for o in unanswered)
    checks = {
        "no accepted create lost": not missing,
        "new connections refused within 1 s": refused_after <= 1,
        "in-flight requests answered": not cut_off,
        "exit 0 within grace": status == 0 and took <= GRACE_SECONDS + 1,
    }
    figures = (f"{len(seen)} creates seen 2xx, {len(stored)} rows stored, {len(missing)} missing, "
               f"{len(stored - seen)} stored without the client seeing 2xx; {after_signal_ok} started after SIGTERM and answered 2xx; "
               f"{len(cut_off)} started > {RACE_WINDOW * 1000:.0f} ms before SIGTERM without an answer, {len(raced)} within it ({detail or 'none'}); refused after {refused_after:.2f} s; "
               f"exit {status} after {took:.2f} s; measurer before SIGTERM {support.describe(measurer.summary(until=signalled))}")
    return support.outcome("SIGTERM under load", checks, figures)


if __name__ == "__main__":
    print(run())
