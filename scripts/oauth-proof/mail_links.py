"""The mail a development server sends, read back as its recipient would (issue 21): the
verification link of the newest mail to an address, from its outbox row while it is queued,
else from the .eml file the server's sender wrote to .mail/ (in the directory the server and
the proofs both run in) once sent. TIL_DATABASE_URL names the server's database."""

import email
import email.policy
import glob
import os
import re
import subprocess
import time

import requests

from proof import TIL_URL, check, check_status

LINK = re.compile(r"https?://\S+/verify-email\?token=[A-Za-z0-9_-]+")


def psql(sql):
    done = subprocess.run(["psql", os.environ["TIL_DATABASE_URL"], "-Atc", sql], capture_output=True, text=True, timeout=30)
    check(done.returncode == 0, "psql reads the server's database", done.stderr)
    return done.stdout.strip()


def mailed_link(recipient):
    """The link of the newest verification mail to `recipient` (an address of the proof's own,
    quoted as is)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        text = psql(f"SELECT text_body FROM mail_outbox WHERE recipient = '{recipient}' AND kind = 'email-verification' "
                    "AND text_body <> '' ORDER BY seq DESC LIMIT 1")
        found = LINK.search(text) or LINK.search(newest_eml_text(recipient))
        if found:
            return found.group(0)
        time.sleep(0.2)
    check(False, f"a verification mail to {recipient} carries a link")


def newest_eml_text(recipient, subject="Confirm"):
    """The text part of the newest .eml file to `recipient` whose subject holds `subject`."""
    for path in sorted(glob.glob(os.path.join(os.getcwd(), ".mail", "*.eml")), key=os.path.getmtime, reverse=True):
        with open(path, "rb") as file:
            message = email.message_from_binary_file(file, policy=email.policy.default)
        if recipient in str(message.get("To", "")) and subject in str(message.get("Subject", "")):
            return message.get_body(preferencelist=("plain",)).get_content()
    return ""


def verified_address(username, password, address):
    """`username`'s address, verified as its owner would: `PUT /api/users/me/email`, then the
    token of the link mailed to it; nothing to do when the account's address is verified already."""
    login = requests.post(f"{TIL_URL}/api/users/login", auth=(username, password), timeout=10)
    check_status(login, 200, f"{username} logs in (account scope)")
    bearer = {"Authorization": f"Bearer {login.json()['value']}"}
    if requests.get(f"{TIL_URL}/api/users/me", headers=bearer, timeout=10).json().get("emailVerified"):
        return address
    change = requests.put(f"{TIL_URL}/api/users/me/email", headers=bearer, timeout=10,
                          json={"email": address, "currentPassword": password})
    check_status(change, 202, f"{username}'s address change is pending")
    token = mailed_link(address).rsplit("token=", 1)[1]
    check_status(requests.post(f"{TIL_URL}/api/users/email/verify", json={"token": token}, timeout=10), 204,
                 "the link of the mail verifies it")
    return address
