"""Drill: no mail is lost while the relay is down (issue 21).

Debian's postfix runs as a private loopback relay (`postfix_relay.py`); a release til-server
sends through it (SMTP_URL, SMTP_TIMEOUT=10). First 10 messages as a warm-up; then postfix is
stopped for 30 s while a burst of 300 password-reset-like messages is queued in three waves
(rows written into the outbox as a feature's transaction writes them: the reset route is not
on main yet), and started again.

Passes when every queued message is in postfix's Maildir exactly once (by Message-ID), the
outbox is empty, nothing was given up (`mail.failed`), the backlog drained within 60 s of
postfix's return, and til-server exits 0 on SIGTERM.
"""
import time

import postfix_relay
import support

WARM_UP = 10
WAVES, PER_WAVE, OUTAGE_SECONDS = 3, 100, 30
DRAIN_LIMIT_SECONDS = 60


def queue(url, count):
    """`count` rows in one transaction, as `MailOutbox.enqueue` writes them; their Message-IDs."""
    sql = f"""
        WITH queued AS (
            INSERT INTO mail_outbox (id, kind, recipient, subject, text_body, html_body)
            SELECT gen_random_uuid(), 'password-reset', 'user' || n || '@{postfix_relay.DOMAIN}', 'Reset your TIL password',
                   E'Someone asked to reset the password of your TIL account.\\n\\nChoose a new password:\\n'
                       || 'http://127.0.0.1/reset-password?token=' || md5(random()::text) || E'\\n\\nThe link works for 30 minutes, once.\\n',
                   '<p>Someone asked to reset the password of your TIL account.</p>'
            FROM generate_series(1, {count}) AS n
            RETURNING id)
        SELECT id FROM queued"""
    return [f"<{row}@til.example>" for row in support.psql(url, sql).split()]


def outbox_rows(url):
    return int(support.psql(url, "SELECT count(*) FROM mail_outbox"))


def wait_for(relay, expected, seconds):
    """Seconds until every Message-ID in `expected` is in the Maildir; None past `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if expected <= set(relay.delivered()):
            return time.monotonic() - start
        time.sleep(0.1)
    return None


def run():
    relay = postfix_relay.Relay(support.free_port())
    relay.start()
    server = None
    try:
        server = support.Server("mail", env={
            "SMTP_URL": f"smtp://127.0.0.1:{relay.port}", "MAIL_FROM": "TIL <no-reply@til.example>", "SMTP_TIMEOUT": "10"})
        url = server.url_db
        support.psql(url, "DELETE FROM mail_outbox")  # an earlier run's leftovers are not this run's
        log_start = server.log_size()

        warm = queue(url, WARM_UP)
        warm_seconds = wait_for(relay, set(warm), 30)

        relay.stop()
        down_at = time.monotonic()
        burst = []
        for wave in range(WAVES):
            burst += queue(url, PER_WAVE)
            time.sleep(max(0.0, down_at + OUTAGE_SECONDS * (wave + 1) / WAVES - time.monotonic()))
        queued_while_down = outbox_rows(url)
        relay.start()
        up_at = time.monotonic()
        drain_seconds = wait_for(relay, set(warm + burst), 180)
        drained_at = time.monotonic()
        outbox_after = outbox_rows(url)

        delivered = relay.delivered()
        expected = set(warm + burst)
        missing = len(expected - set(delivered))
        duplicates = len(delivered) - len(set(delivered))
        log = server.log_lines_since(log_start)
        relay_failures = sum("mail relay failed" in line for line in log)
        given_up = sum('event="mail.failed"' in line for line in log)
        status, _ = server.stop()
        server = None
        checks = {
            "warm-up delivered": warm_seconds is not None,
            "every message delivered": missing == 0,
            "none twice": duplicates == 0,
            "outbox empty": outbox_after == 0,
            "none given up": given_up == 0,
            f"drained within {DRAIN_LIMIT_SECONDS} s": drain_seconds is not None and drain_seconds <= DRAIN_LIMIT_SECONDS,
            "exit 0": status == 0,
        }
        figures = (
            f"warm-up {WARM_UP} in {warm_seconds or 0:.2f} s; postfix stopped {up_at - down_at:.1f} s while "
            f"{len(burst)} were queued ({WAVES} waves), {queued_while_down} waiting when it returned; "
            f"all {len(delivered)} of {len(expected)} in the Maildir {drain_seconds or 0:.1f} s after its return "
            f"(drained at {drained_at - down_at:.1f} s from the stop); missing {missing}, duplicates {duplicates}; "
            f"relay failures logged {relay_failures}; given up {given_up}; outbox after {outbox_after}; exit {status}")
        return support.outcome("Mail relay (postfix) down 30 s under a burst", checks, figures)
    finally:
        if server is not None:
            server.stop()
        relay.stop()
