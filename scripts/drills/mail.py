"""Drill: no mail is lost while the relay is down (issue 21).

Debian's postfix runs as a private loopback relay (`postfix_relay.py`); a release til-server
sends through it (SMTP_URL, SMTP_TIMEOUT=10). The drill makes 310 accounts with a verified
address at example.com (created with `POST /api/users`; the address set verified in the
database, as the verification link would). 10 password resets as a warm-up; then postfix is
stopped for 30 s while 300 more are asked for (`POST /api/users/password-reset`, the real
route, in three waves, each from its own client address through X-Forwarded-For as from a
balancer: TRUSTED_PROXIES=127.0.0.1), and started again.

Passes when every request got its 202, every account's reset mail is in postfix's Maildir
exactly once (with its link), no Message-ID twice, the outbox is empty, nothing was given up
(`mail.failed`), the backlog drained within 60 s of postfix's return, and til-server exits 0.
"""
import json
import secrets
import threading
import time

import postfix_relay
import support

WARM_UP = 10
WAVES, PER_WAVE, OUTAGE_SECONDS = 3, 100, 30
DRAIN_LIMIT_SECONDS = 60
THREADS = 4


def create_accounts(server, url, prefix, count):
    """`count` accounts `<prefix>n<i>` with the address `<username>@example.com`, verified."""
    names = [f"{prefix}n{i}" for i in range(count)]
    for name in names:
        body = json.dumps({"name": name, "username": name, "password": secrets.token_urlsafe(18)})
        status, _ = support.request(server.port, "POST", "/api/users", body=body, headers={
            "Authorization": f"Bearer {server.token}", "Content-Type": "application/json"})
        if status != 201 and status != 200:
            raise RuntimeError(f"POST /api/users answered {status}")
    support.psql(url, f"""UPDATE users SET email = username || '@{postfix_relay.DOMAIN}', email_verified_at = now()
                          WHERE username LIKE '{prefix}n%'""")
    return names


def ask_resets(port, names, first_address):
    """One reset request per name, THREADS at a time, each from its own client address; the statuses."""
    statuses = [None] * len(names)

    def work(offset):
        for index in range(offset, len(names), THREADS):
            number = first_address + index
            headers = {"Content-Type": "application/json",
                       "X-Forwarded-For": f"10.21.{number // 250}.{number % 250 + 1}"}
            try:
                statuses[index], _ = support.request(port, "POST", "/api/users/password-reset",
                                                     body=json.dumps({"login": names[index]}), headers=headers)
            except OSError:
                statuses[index] = 0

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def outbox_rows(url):
    return int(support.psql(url, "SELECT count(*) FROM mail_outbox"))


def wait_for(relay, addresses, seconds):
    """Seconds until a message for every address in `addresses` is in the Maildir; None past `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if addresses <= {message["to"] for message in relay.delivered()}:
            return time.monotonic() - start
        time.sleep(0.1)
    return None


def run():
    relay = postfix_relay.Relay(support.free_port())
    relay.start()
    server = None
    try:
        server = support.Server("mail", env={
            "SMTP_URL": f"smtp://127.0.0.1:{relay.port}", "MAIL_FROM": "TIL <no-reply@til.example>", "SMTP_TIMEOUT": "10",
            "TRUSTED_PROXIES": "127.0.0.1"})
        url = server.url_db
        support.psql(url, "DELETE FROM mail_outbox")  # an earlier run's leftovers are not this run's
        names = create_accounts(server, url, f"m{int(time.time())}", WARM_UP + WAVES * PER_WAVE)
        addresses = {f"{name}@{postfix_relay.DOMAIN}" for name in names}
        log_start = server.log_size()

        statuses = ask_resets(server.port, names[:WARM_UP], 0)
        warm_seconds = wait_for(relay, {f"{name}@{postfix_relay.DOMAIN}" for name in names[:WARM_UP]}, 30)

        relay.stop()
        down_at = time.monotonic()
        for wave in range(WAVES):
            start = WARM_UP + wave * PER_WAVE
            statuses += ask_resets(server.port, names[start:start + PER_WAVE], start)
            time.sleep(max(0.0, down_at + OUTAGE_SECONDS * (wave + 1) / WAVES - time.monotonic()))
        queued_while_down = outbox_rows(url)
        relay.start()
        up_at = time.monotonic()
        drain_seconds = wait_for(relay, addresses, 180)
        outbox_after = outbox_rows(url)

        delivered = relay.delivered()
        per_address = {}
        for message in delivered:
            per_address[message["to"]] = per_address.get(message["to"], 0) + 1
        missing = len(addresses - set(per_address))
        twice = sum(1 for count in per_address.values() if count > 1)
        ids = [message["id"] for message in delivered]
        without_link = sum("/reset-password?token=" not in message["text"] for message in delivered)
        log = server.log_lines_since(log_start)
        relay_failures = sum("mail relay failed" in line for line in log)
        given_up = sum('event="mail.failed"' in line for line in log)
        accepted = sum(status == 202 for status in statuses)
        status, _ = server.stop()
        server = None
        checks = {
            "every request 202": accepted == len(names),
            "warm-up delivered": warm_seconds is not None,
            "every account's mail delivered": missing == 0,
            "none twice": twice == 0 and len(ids) == len(set(ids)),
            "every mail holds its link": without_link == 0,
            "outbox empty": outbox_after == 0,
            "none given up": given_up == 0,
            f"drained within {DRAIN_LIMIT_SECONDS} s": drain_seconds is not None and drain_seconds <= DRAIN_LIMIT_SECONDS,
            "exit 0": status == 0,
        }
        figures = (
            f"{accepted} of {len(names)} reset requests answered 202; warm-up {WARM_UP} delivered in {warm_seconds or 0:.2f} s; "
            f"postfix stopped {up_at - down_at:.1f} s while {WAVES * PER_WAVE} resets were asked for ({WAVES} waves), "
            f"{queued_while_down} mails waiting when it returned; all {len(delivered)} of {len(names)} in the Maildir "
            f"{drain_seconds or 0:.1f} s after its return; missing {missing}, twice {twice}, without link {without_link}; "
            f"relay failures logged {relay_failures}; given up {given_up}; outbox after {outbox_after}; exit {status}")
        return support.outcome("Mail relay (postfix) down 30 s under a burst of password resets", checks, figures)
    finally:
        if server is not None:
            server.stop()
        relay.stop()
