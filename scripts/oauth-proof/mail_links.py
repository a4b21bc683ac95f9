"""The mail a development server sends, read back as its recipient would (issue 21): the link
of the newest mail of a kind to an address, from its outbox row while it is queued, else from
the .eml file the server's sender wrote to .mail/ (in the directory the server and the proofs
both run in) once sent. TIL_DATABASE_URL names the server's database."""

import email
import email.policy
import glob
import os
import re
import subprocess
import time

import requests

from proof import TIL_URL, check, check_status

MAIL_DIRECTORY = os.path.join(os.getcwd(), ".mail")  # the development server's, when its sender wrote the mail out


def psql(sql, *values):
    """One statement through psql, `values` bound as psql variables (never pasted into SQL)."""
    variables = [arg for index, value in enumerate(values) for arg in ("-v", f"v{index}={value}")]
    result = subprocess.run(["psql", os.environ["TIL_DATABASE_URL"], "-X", "-At", *variables], input=sql,
                            capture_output=True, text=True, check=True, timeout=30)
    return result.stdout.strip()


def mailed_link(address, kind="email-verification", page="verify-email", subject="confirm"):
    """The link to `page` in the newest mail of `kind` to `address` (an .eml counts when its
    subject holds `subject`, in any case): the text part, decoded."""
    pattern = re.compile(rf"https?://\S+/{page}\?token=[A-Za-z0-9_-]+")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        text = psql("SELECT text_body FROM mail_outbox WHERE recipient = :'v0' AND kind = :'v1' AND text_body <> '' "
                    "ORDER BY seq DESC LIMIT 1", address, kind)
        found = pattern.search(text) or pattern.search(newest_eml_text(address, subject))
        if found:
            check(True, f"the {kind} mail to {address} holds its link")
            return found.group(0)
        time.sleep(0.1)
    check(False, f"a {kind} mail to {address}", "no outbox row and no .eml file with a link")


def newest_eml_text(address, subject):
    """The text part of the newest .eml file to `address` whose subject holds `subject`."""
    for path in sorted(glob.glob(os.path.join(MAIL_DIRECTORY, "*.eml")), key=os.path.getmtime, reverse=True):
        with open(path, "rb") as file:
            message = email.message_from_binary_file(file, policy=email.policy.default)
        if address in str(message.get("To", "")) and subject.lower() in str(message.get("Subject", "")).lower():
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
