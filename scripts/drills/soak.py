"""Drill: soak, SOAK_SECONDS (default 600) of mixed load while the measuring client runs.

Six client threads, each on its own keep-alive connection and as one of three users the
drill creates (so no single account carries every session), pick at random: read one acronym
(35 %), list 20 acronyms (20 %), read their own account (10 %), create an acronym with their
bearer token and delete it again (15 %, so the table does not grow), refresh their token pair
(12 %, the old refresh token is then spent), or log in again with HTTP Basic and log the
previous session out (8 %). Logins always succeed, so the failed-login throttle (429) is
never involved by design; a 429 or 503 would be counted apart and fail the drill all the same.

The server's resident memory (VmRSS) and open descriptors are sampled every 5 s. Passes when
no request failed (no 5xx, no socket error, no status other than the expected 2xx), the
measuring client saw no error, the last minute's average RSS is within +10 % or +5 MiB
(whichever is larger) of the first minute's, and the last minute's descriptors are within
+5 of the first minute's.
"""
import base64
import http.client
import json
import os
import random
import threading
import time
import uuid

import support

SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
WORKERS = 6
USERS = 3
PASSWORD = "soak-drill-password"


class Client:
    """One user's keep-alive connection and token pair; `call` records every outcome."""

    def __init__(self, port, username, outcomes):
        self.port, self.username, self.outcomes = port, username, outcomes
        self.conn, self.access, self.refresh_token = None, None, None

    def call(self, op, method, path, body=None, bearer=True, headers=None):
        headers = dict(headers or {})
        if bearer:
            headers["Authorization"] = f"Bearer {self.access}"
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                self.close()
        except (OSError, http.client.HTTPException):
            self.close()
            status, data = 0, b""
        key = (op, status)
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        return status, data

    def log_in(self):
        basic = base64.b64encode(f"{self.username}:{PASSWORD}".encode()).decode()
        previous = self.access
        status, data = self.call("login", "POST", "/api/users/login", bearer=False, headers={"Authorization": f"Basic {basic}"})
        if status == 200:
            token = json.loads(data)
            if previous:
                self.call("logout", "POST", "/api/users/logout", headers={"Authorization": f"Bearer {previous}"}, bearer=False)
            self.access, self.refresh_token = token["value"], token["refreshToken"]

    def refresh(self):
        status, data = self.call("refresh", "POST", "/api/users/refresh", body={"refreshToken": self.refresh_token}, bearer=False)
        if status == 200:
            token = json.loads(data)
            self.access, self.refresh_token = token["value"], token["refreshToken"]
        else:  # never expected; start a fresh session so the run goes on (the failure is counted)
            self.log_in()

    def close(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = None


def work(client, acronym_id, until):
    """One worker's loop of random operations until `until` (monotonic)."""
    client.log_in()
    rng = random.Random()
    while time.monotonic() < until:
        roll = rng.random()
        if roll < 0.35:
            client.call("read", "GET", f"/api/acronyms/{acronym_id}", bearer=False)
        elif roll < 0.55:
            client.call("list", "GET", "/api/acronyms?limit=20", bearer=False)
        elif roll < 0.65:
            client.call("me", "GET", "/api/users/me")
        elif roll < 0.80:
            status, data = client.call("create", "POST", "/api/acronyms", body={"short": "SK", "long": "soak drill"})
            if status in (200, 201):
                client.call("delete", "DELETE", f"/api/acronyms/{json.loads(data)['id']}")
        elif roll < 0.92:
            client.refresh()
        else:
            client.log_in()
    client.close()


def run():
    server = support.Server("soak")
    pid = server.process.pid
    measurer = support.Measurer(server.port, f"/api/acronyms/{server.acronym_id}", pause=0.05)
    tag = uuid.uuid4().hex[:8]
    admin = Client(server.port, "admin", {})
    admin.access = server.token
    usernames = [f"soak-{tag}-{i}" for i in range(USERS)]
    for name in usernames:
        status, _ = admin.call("setup", "POST", "/api/users", body={"name": name, "username": name, "password": PASSWORD})
        if status not in (200, 201):
            raise RuntimeError(f"could not create soak user {name}: {status}")
    admin.close()
    outcomes = [{} for _ in range(WORKERS)]
    samples = []  # (seconds since start, rss KiB, descriptors)
    try:
        measurer.start()
        started = time.monotonic()
        until = started + SECONDS
        workers = [threading.Thread(target=work, args=(Client(server.port, usernames[i % USERS], outcomes[i]), server.acronym_id, until),
                                    daemon=True) for i in range(WORKERS)]
        for worker in workers:
            worker.start()
        while time.monotonic() < until:
            samples.append((time.monotonic() - started, support.resident_kib(pid), support.descriptors(pid)))
            time.sleep(5)
        for worker in workers:
            worker.join(timeout=30)
    finally:
        measurer.stop()
        status, _ = server.stop()

    totals = {}
    for counts in outcomes:
        for key, n in counts.items():
            totals[key] = totals.get(key, 0) + n
    requests = sum(totals.values())
    failed = {key: n for key, n in totals.items() if not 200 <= key[1] < 300}
    errors = sum(n for (_, code), n in failed.items() if code == 0 or code >= 500)
    first = [s for s in samples if s[0] < 60]
    last = [s for s in samples if s[0] >= SECONDS - 60]
    rss_first, rss_last = (sum(s[1] for s in part) / max(1, len(part)) / 1024 for part in (first, last))
    fds_first, fds_last = (sum(s[2] for s in part) / max(1, len(part)) for part in (first, last))
    by_op = {}
    for (op, code), n in totals.items():
        by_op[op] = by_op.get(op, 0) + n
    measured = measurer.summary()
    measured_errors = sum(n for code, n in measured["statuses"].items() if code != 200)
    checks = {"no errors (5xx, socket)": errors == 0, "only expected statuses": not failed,
              "no measured errors": measured_errors == 0,
              "RSS flat": rss_last <= rss_first + max(5, rss_first * 0.10),
              "descriptors flat": fds_last <= fds_first + 5}
    mix = ", ".join(f"{op} {n}" for op, n in sorted(by_op.items(), key=lambda item: -item[1]))
    failed_text = ", ".join(f"{op} {code or 'error'}×{n}" for (op, code), n in sorted(failed.items())) or "none"
    figures = (f"{SECONDS} s, {WORKERS} clients as {USERS} users: {requests} requests ({requests / SECONDS:.0f}/s: {mix}); "
               f"non-2xx {failed_text}; RSS first minute {rss_first:.1f} MiB, last minute {rss_last:.1f} MiB "
               f"(max {max((s[1] for s in samples), default=0) / 1024:.1f}); descriptors first minute {fds_first:.1f}, last {fds_last:.1f}; "
               f"measurer {support.describe(measured)}; exit {status}")
    return support.outcome(f"Soak ({SECONDS // 60} min mixed load)" if SECONDS >= 60 else f"Soak ({SECONDS} s mixed load)", checks, figures)


if __name__ == "__main__":
    print(run())
