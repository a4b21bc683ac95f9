"""Drill 2: `pg_terminate_backend` of every TIL connection (application_name = 'til') mid-load.

Passes when no request gets a 500 or a wrk error, the failed requests are at most the
connections killed (only queries in flight may fail), and the measuring client gets 200 again
within 2 s. The til role may terminate its own backends, so no superuser is needed.
"""
import time

import support

TERMINATE = ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
             "WHERE application_name = 'til' AND pid <> pg_backend_pid()")


def run():
    server = support.Server("terminate-backends")
    path = f"/api/acronyms/{server.acronym_id}"
    measurer = support.Measurer(server.port, path)
    try:
        measurer.start()
        load = support.wrk(server.port, path, seconds=8)
        time.sleep(3)
        killed_at = time.monotonic()
        killed = int(support.psql(server.url_db, TERMINATE))
        counts = support.wrk_counts(load)
    finally:
        measurer.stop()
        status, _ = server.stop()

    failures = [s for s in measurer.samples if s[1] != 200]
    ok_after = [s for s in measurer.samples if s[1] == 200 and s[0] >= max((f[0] for f in failures), default=killed_at)]
    recovery = max(0.0, ok_after[0][0] + ok_after[0][2] - killed_at) if ok_after else float("inf")
    failed = counts.get("requests", 0) - counts.get(200, 0) + counts["errors"] + len(failures)
    server_errors = sum(n for code, n in counts.items() if isinstance(code, int) and code >= 500 and code != 503)
    server_errors += sum(1 for s in failures if s[1] >= 500 and s[1] != 503)
    checks = {
        "no 500": server_errors == 0,
        "failures only in flight": failed <= killed,
        "recovers within 2 s": recovery <= 2,
    }
    figures = (f"{killed} backends terminated; wrk {counts.get('requests', 0)} req: "
               f"{counts.get(200, 0)}×200, {counts.get(503, 0)}×503, {counts['errors']} errors; measurer {support.describe(measurer.summary())}; "
               f"failed requests {failed}; recovery {recovery:.2f} s; exit {status}")
    return support.outcome("pg_terminate_backend of every TIL connection", checks, figures)


if __name__ == "__main__":
    print(run())
