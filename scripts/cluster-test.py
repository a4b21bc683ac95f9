#!/usr/bin/env python3
"""Drives TIL's auth flows through a running `scripts/cluster.sh` cluster and prints PASS/FAIL
lines with numbers; exits 1 when any check failed. Run by scripts/cluster-test.sh, which starts
the cluster and exports what `cluster.sh env` prints.

What it shows: a token issued by one process works on the others and dies everywhere at logout;
sessions and login throttling are shared (they live in PostgreSQL); X-Forwarded-For reaches the
audit log through HAProxy; /metrics only on each server's own metrics port; a til-server killed with SIGKILL under load fails no request beyond
those in flight on it; a stopped replica leaves anonymous reads served by the primary. Every
wait is bounded; everything talks to 127.0.0.1 only.
"""
import glob
import json
import os
import signal
import sys
import threading
import time

from cluster_support import (ADMIN_PASSWORD, BALANCER, METRICS, SERVERS, STATE, Client, cluster, fresh_loopback_address,
                             haproxy_servers, is_alive, login, new_user, once, sql_on, til_backends_on_replica, token,
                             wait_until)

MAX_FAILURES = int(os.environ.get("LOGIN_MAX_FAILURES", "10"))
LOAD_SECONDS = float(os.environ.get("CLUSTER_TEST_LOAD_SECONDS", "9"))
LOAD_WORKERS = int(os.environ.get("CLUSTER_TEST_WORKERS", "8"))
# How long after a process is gone HAProxy may still write a request into one of its pooled
# connections to it (until its event loop sees the close): measured 4-17 ms on this machine.
REUSE_WINDOW = 0.1

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f"  [{detail}]" if detail else ""), flush=True)


# --- the checks -----------------------------------------------------------------------------------------


def round_robin():
    servers = haproxy_servers()
    before = {name: int(r["hrsp_2xx"] or 0) for name, r in servers.items()}
    up = [name for name, r in servers.items() if r["status"] == "UP"]
    check("balancer sees every til-server UP (/ready checks)", len(up) == len(SERVERS), f"{len(up)}/{len(SERVERS)} up")
    for _ in range(30):
        once(BALANCER, "GET", "/health")
    after = {name: int(r["hrsp_2xx"] or 0) for name, r in haproxy_servers().items()}
    spread = {name: after[name] - before.get(name, 0) for name in after}
    check("round-robin spreads 30 requests evenly", max(spread.values()) - min(spread.values()) <= 2, f"per server {spread}")


def tokens_across_processes(admin_token):
    s1, s2, s3 = SERVERS[0], SERVERS[1 % len(SERVERS)], SERVERS[2 % len(SERVERS)]
    status, token, _ = login(s1, "admin", ADMIN_PASSWORD)
    check("log in on process 1", status == 200, f"status {status}")
    value = token["value"]
    me = [once(s, "GET", "/api/users/me", bearer=value)[0] for s in (s2, s3)]
    check("its token works on processes 2 and 3", me == [200, 200], f"statuses {me}")
    status, data, _ = once(s2, "POST", "/api/acronyms", bearer=value, json_body={"short": "XP", "long": "Cross-process"})
    check("create on process 2 with it", status == 200, f"status {status}")
    acronym = json.loads(data)["id"]
    status, _, _ = once(s3, "GET", f"/api/acronyms/{acronym}", bearer=value)
    check("read-after-write with the token on process 3 (primary)", status == 200, f"status {status}")
    started = time.monotonic()
    seen = wait_until(lambda: once(s1, "GET", f"/api/acronyms/{acronym}")[0] == 200, 5, interval=0.002)
    check("anonymous read on process 1 (replica) sees it", seen, f"visible after {1000 * (time.monotonic() - started):.0f} ms")
    status, _, _ = once(s3, "POST", "/api/users/logout", bearer=value)
    check("log out on process 3", status == 204, f"status {status}")
    after = [once(s, "GET", "/api/users/me", bearer=value)[0] for s in SERVERS]
    after += [once(BALANCER, "GET", "/api/users/me", bearer=value)[0] for _ in SERVERS]
    check("the token is refused everywhere at once (each process, and via the balancer)", set(after) == {401}, f"statuses {after}")


def sessions_everywhere(admin_token):
    s1, s2, s3 = SERVERS[0], SERVERS[1 % len(SERVERS)], SERVERS[2 % len(SERVERS)]
    username = new_user(admin_token, "sessions")
    a = login(s1, username, "correct-horse")[1]
    b = login(s2, username, "correct-horse")[1]
    status, data, _ = once(s3, "GET", "/api/users/me/sessions", bearer=a["value"])
    ids = {entry["id"] for entry in json.loads(data)} if status == 200 else set()
    check("process 3 lists the sessions opened on 1 and 2", ids == {a["id"], b["id"]}, f"status {status}, {len(ids)} sessions")
    status, _, _ = once(s1, "DELETE", f"/api/users/me/sessions/{b['id']}", bearer=a["value"])
    check("end session B on process 1", status == 204, f"status {status}")
    gone = [once(s, "GET", "/api/users/me", bearer=b["value"])[0] for s in SERVERS]
    kept = [once(s, "GET", "/api/users/me", bearer=a["value"])[0] for s in SERVERS]
    check("B is refused on every process, A still works", set(gone) == {401} and set(kept) == {200}, f"B {gone}, A {kept}")


def throttling_everywhere(admin_token):
    username = new_user(admin_token, "throttle")
    source = fresh_loopback_address()
    failures = [login(SERVERS[i % len(SERVERS)], username, "wrong-password", source)[0] for i in range(MAX_FAILURES)]
    check(f"{MAX_FAILURES} wrong passwords spread over the processes", set(failures) == {401}, f"statuses {sorted(set(failures))}")
    answers = [login(s, username, "correct-horse", source) for s in SERVERS + [BALANCER]]
    statuses = [status for status, _, _ in answers]
    retry_after = [response.getheader("Retry-After") for _, _, response in answers]
    check("every process (and the balancer) now throttles that username", set(statuses) == {429} and all(retry_after),
          f"statuses {statuses}, Retry-After {retry_after}")


def forwarded_for_reaches_the_audit_log(admin_token):
    """The client connects from 127.a.b.c; TIL's peer is HAProxy (127.0.0.1, trusted), so the
    audit line can only name 127.a.b.c if HAProxy wrote it into X-Forwarded-For."""
    username = new_user(admin_token, "xff")
    source = fresh_loopback_address()
    status = login(BALANCER, username, "wrong-password", source)[0]
    marker = f'address="{source}"'
    found = wait_until(lambda: any(marker in open(f).read() for f in glob.glob(f"{STATE}/til-*.log")), 5)
    check("HAProxy's X-Forwarded-For names the real client in the audit log (TRUSTED_PROXIES=127.0.0.1)",
          status == 401 and found, f"status {status}, client {source} {'logged' if found else 'missing'}")


def metrics_apart_from_the_api():
    """Production: /metrics is not on the API's port (nor through the balancer), only on each
    server's METRICS_PORT listener, and that listener answers for its own process."""
    on_api = [once(s, "GET", "/metrics")[0] for s in SERVERS] + [once(BALANCER, "GET", "/metrics")[0]]
    check("no /metrics on the API ports or the balancer (production)", set(on_api) == {404}, f"statuses {on_api}")
    scraped = [once(m, "GET", "/metrics") for m in METRICS]
    ok = len(scraped) == len(SERVERS) and all(s == 200 and b"http_requests_total" in data for s, data, _ in scraped)
    check("each server's METRICS_PORT serves its metrics", ok, f"statuses {[s for s, _, _ in scraped]} on {METRICS}")


def kill_one_process_under_load(admin_token):
    victim = 2 if len(SERVERS) > 1 else 1
    tokens = [token(BALANCER, "admin", ADMIN_PASSWORD) for _ in range(LOAD_WORKERS)]
    status, data, _ = once(BALANCER, "POST", "/api/acronyms", bearer=admin_token, json_body={"short": "K", "long": "Kill"})
    acronym = json.loads(data)["id"]
    # Anonymous reads go to the replica: wait for the row to be replayed there first.
    wait_until(lambda: all(once(BALANCER, "GET", f"/api/acronyms/{acronym}")[0] == 200 for _ in SERVERS), 5)
    records = []
    lock = threading.Lock()
    start = time.monotonic()
    stop_at = start + LOAD_SECONDS

    def worker(token):
        client = Client(BALANCER, timeout=10)
        n = 0
        while time.monotonic() < stop_at:
            post = n % 4 == 3
            n += 1
            began = time.monotonic()
            try:
                if post:
                    status = client.send("POST", "/api/acronyms", bearer=token, json_body={"short": "L", "long": "Load"})[0]
                else:
                    status = client.send("GET", f"/api/acronyms/{acronym}")[0]
            except Exception as error:  # connection reset, timeout: a failed request
                reused = client.answered_on_connection
                status = f"{type(error).__name__} ({'after ' + str(reused) + ' answers on that connection' if reused else 'new connection'})"
            with lock:
                records.append((began, time.monotonic(), "POST" if post else "GET", status))

    threads = [threading.Thread(target=worker, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    time.sleep(LOAD_SECONDS / 3)
    counters_before = haproxy_servers()
    pid = int(open(f"{STATE}/til-{victim}.pid").read())
    signalled_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    # SIGKILL is not instant: the process keeps its sockets until the kernel has torn it down. A
    # request that reached it before then was in flight on it; "after the kill" means after that.
    wait_until(lambda: not is_alive(pid), 5, interval=0.0005)
    killed_at = time.monotonic()
    marked_down = wait_until(lambda: haproxy_servers()[f"til{victim}"]["status"].startswith("DOWN"), 10)
    down_after = time.monotonic() - killed_at
    for t in threads:
        t.join(timeout=LOAD_SECONDS + 15)
    failed = [r for r in records if r[3] not in (200,)]
    # Three kinds of failure: sent before the process was gone (in flight on it); sent within
    # REUSE_WINDOW after (HAProxy wrote it into a pooled connection to the dead process before
    # its epoll saw that connection close: in flight towards it); later (the balancer's fault).
    in_flight = [r for r in failed if r[0] < killed_at]
    into_closing = [r for r in failed if killed_at <= r[0] < killed_at + REUSE_WINDOW]
    late = [r for r in failed if r[0] >= killed_at + REUSE_WINDOW]
    counters_after = haproxy_servers()
    retried = sum(int(counters_after[n]["wretr"] or 0) - int(counters_before[n]["wretr"] or 0) for n in counters_after)
    redispatched = sum(int(counters_after[n]["wredis"] or 0) - int(counters_before[n]["wredis"] or 0) for n in counters_after)
    total_rate = len(records) / LOAD_SECONDS
    print(f"      load: {LOAD_WORKERS} clients x {LOAD_SECONDS:.0f} s through the balancer, 3 anonymous GETs : 1 bearer POST; "
          f"{len(records)} requests ({total_rate:.0f}/s); til-{victim} SIGKILLed at {signalled_at - start:.1f} s, "
          f"gone {1000 * (killed_at - signalled_at):.1f} ms later; "
          f"HAProxy marked it DOWN after {down_after:.1f} s, meanwhile retrying {retried} requests and redispatching {redispatched}")
    kinds = {}
    for r in in_flight + into_closing:
        kinds[(r[2], r[3])] = kinds.get((r[2], r[3]), 0) + 1
    check("HAProxy takes the killed process out (fall 2 x 1 s checks)", marked_down, f"{down_after:.1f} s")
    check(f"no request failed that was sent {1000 * REUSE_WINDOW:.0f} ms or more after the process was gone", not late,
          f"{len(late)} failed" + "".join(
              f"; {method} {status} sent {1000 * (began - killed_at):.0f} ms after" for began, _, method, status in late))
    check(f"failures limited to requests in flight on the killed process (at most one per client, {LOAD_WORKERS}), never a GET",
          len(in_flight) + len(into_closing) <= LOAD_WORKERS and all(r[2] == "POST" for r in in_flight + into_closing),
          f"{len(in_flight) + len(into_closing)} of {len(records)} failed ({len(in_flight)} sent before it was gone, "
          f"{len(into_closing)} into its closing connections"
          + "".join(f", {1000 * (r[0] - killed_at):.0f} ms after" for r in into_closing) + f"): {kinds or 'none'}")
    cluster("start-server", str(victim))
    back = wait_until(lambda: haproxy_servers()[f"til{victim}"]["status"] == "UP", 15)
    check(f"til-{victim} restarted and back in the balancer", back)


def replica_stopped(admin_token):
    status, data, _ = once(BALANCER, "POST", "/api/acronyms", bearer=admin_token, json_body={"short": "R", "long": "Replica"})
    path = f"/api/acronyms/{json.loads(data)['id']}"
    wait_until(lambda: all(once(BALANCER, "GET", path)[0] == 200 for _ in SERVERS), 5)
    for _ in range(12):
        once(BALANCER, "GET", path)
    before = til_backends_on_replica()
    check("anonymous reads are served by the replica", before > 0, f"{before} til connections on the replica")
    cluster("stop-replica")
    latencies, statuses = [], []
    for _ in range(60):
        began = time.monotonic()
        statuses.append(once(BALANCER, "GET", path)[0])
        latencies.append(time.monotonic() - began)
    latencies.sort()
    writes = [once(BALANCER, "POST", "/api/acronyms", bearer=admin_token, json_body={"short": "R", "long": "Replica down"})[0]
              for _ in range(5)]
    check("replica stopped: 60 anonymous reads still answered (by the primary)", set(statuses) == {200},
          f"statuses {sorted(set(statuses))}, p50 {1000 * latencies[30]:.1f} ms, max {1000 * latencies[-1]:.0f} ms")
    check("replica stopped: the first failure costs at most a connect attempt, not a timeout per request",
          latencies[-1] < 3.0 and latencies[30] < 0.5, f"max {1000 * latencies[-1]:.0f} ms")
    check("replica stopped: writes unaffected", set(writes) == {200}, f"statuses {writes}")
    cluster("start-replica")
    started = time.monotonic()

    def reads_back():
        for _ in range(6):
            once(BALANCER, "GET", path)
        return til_backends_on_replica() > 0

    back = wait_until(reads_back, 20)
    check("replica restarted: reads return to it (probe every 2 s)", back, f"after {time.monotonic() - started:.1f} s")


def main():
    print(f"cluster test: {len(SERVERS)} til-servers behind {BALANCER}")
    status, admin, _ = login(BALANCER, "admin", ADMIN_PASSWORD)
    if status != 200:
        print(f"FAIL  admin login through the balancer: {status}")
        return 1
    started = time.monotonic()
    round_robin()
    tokens_across_processes(admin["value"])
    sessions_everywhere(admin["value"])
    throttling_everywhere(admin["value"])
    forwarded_for_reaches_the_audit_log(admin["value"])
    metrics_apart_from_the_api()
    kill_one_process_under_load(admin["value"])
    replica_stopped(admin["value"])
    # The rows this run made (the load test alone makes thousands): later runs start alike.
    sql_on("primary", "DELETE FROM acronyms WHERE short IN ('XP', 'K', 'L', 'R')")
    passed = sum(results)
    print(f"cluster test: {passed}/{len(results)} checks passed in {time.monotonic() - started:.0f} s")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
