"""What both third-party proofs share: the server under test, checks that say what they proved,
discovery (RFC 8414), and client registration: by RFC 7591 as any client would do it, or by
`til-server clients add` as an operator would.

The environment comes from scripts/oauth-proof.sh: TIL_URL, TIL_ADMIN_PASSWORD, and for the
operator's command TIL_SERVER_BIN and TIL_DATABASE_URL."""

import os
import re
import subprocess
import sys
import time

import requests
from authlib.integrations.requests_client import OAuth2Session

TIL_URL = os.environ["TIL_URL"]
ADMIN_PASSWORD = os.environ["TIL_ADMIN_PASSWORD"]
_started = time.monotonic()
_passed = 0


def check(condition, claim, detail=None):
    """Stops the proof, loudly, unless `condition`; otherwise says what was proved."""
    global _passed
    if not condition:
        print(f"FAILED  {claim}" + (f"\n        {detail}" if detail is not None else ""), file=sys.stderr)
        sys.exit(1)
    _passed += 1
    print(f"ok      {claim}")


def check_equal(actual, expected, claim):
    check(actual == expected, claim, f"expected {expected!r}, got {actual!r}")


def check_status(response, expected, claim):
    check(response.status_code == expected, claim,
          f"expected {expected}, got {response.status_code}: {response.text[:500]}")


def check_redirect(redirect, caught, state, issuer, claim):
    """The authorization response as the client got it: at its listener, with its own state
    back verbatim and the issuer's `iss` (RFC 9207, against mix-up attacks)."""
    check_equal(caught, redirect, f"{claim}: the client's listener got the redirect")
    check_equal(redirect.get("state"), state, f"{claim}: the same state")
    check_equal(redirect.get("iss"), issuer, f"{claim}: iss (RFC 9207)")


def summary(name):
    print(f"{name}: {_passed} checks passed in {time.monotonic() - _started:.1f} s")


def discover():
    """The authorization server's metadata, found as a client that knows only TIL's API finds it
    (RFC 9728, the MCP authorization flow): a 401's challenge names the resource metadata, which
    names the issuer, whose RFC 8414 metadata names every endpoint."""
    response = requests.post(f"{TIL_URL}/api/categories", json={"name": "anonymous"}, timeout=10)
    check_status(response, 401, "discovery: the API refuses a request without a token")
    challenge = re.search(r'resource_metadata="([^"]+)"', response.headers.get("WWW-Authenticate", ""))
    check(challenge, "discovery: the 401's challenge names resource_metadata", response.headers.get("WWW-Authenticate"))
    response = requests.get(challenge.group(1), timeout=10)
    check_status(response, 200, "discovery: the protected resource metadata answers (RFC 9728)")
    resource = response.json()
    check_equal(resource.get("resource"), f"{TIL_URL}/api", "discovery: the resource is ISSUER/api")
    issuer = resource.get("authorization_servers", [None])[0]
    check_equal(issuer, TIL_URL, "discovery: it names TIL as the authorization server")
    response = requests.get(f"{issuer}/.well-known/oauth-authorization-server", timeout=10)
    check_status(response, 200, "discovery: GET /.well-known/oauth-authorization-server")
    metadata = response.json()
    check_equal(metadata.get("issuer"), issuer, "discovery: the metadata's issuer is the server's own URL (RFC 8414 §3.3)")
    check_equal(metadata.get("code_challenge_methods_supported"), ["S256"], "discovery: PKCE S256 only")
    for endpoint in ("authorization_endpoint", "token_endpoint", "registration_endpoint",
                     "revocation_endpoint", "introspection_endpoint"):
        check(str(metadata.get(endpoint, "")).startswith(TIL_URL), f"discovery: {endpoint} on the issuer")
    return metadata


def admin_session():
    """An authlib session holding the admin's bearer token with `clients:write`, from TIL's own
    Basic login: registration needs that scope (issue 18)."""
    response = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "clients:write"},
                             auth=("admin", ADMIN_PASSWORD), timeout=10)
    check_status(response, 200, "the admin logs in with the clients:write scope")
    return OAuth2Session(token={"access_token": response.json()["value"], "token_type": "Bearer"})


def create_user(name, username, password):
    """A user for a proof, created by the admin through the API."""
    admin = requests.post(f"{TIL_URL}/api/users/login", auth=("admin", ADMIN_PASSWORD), timeout=10)
    check_status(admin, 200, "the admin logs in")
    created = requests.post(f"{TIL_URL}/api/users", json={"name": name, "username": username, "password": password},
                            headers={"Authorization": f"Bearer {admin.json()['value']}"}, timeout=10)
    check_status(created, 200, f"the admin creates {username}")


def register(admin, metadata, registration_endpoint):
    """RFC 7591 registration; authlib has no helper for it, so a plain authorized POST."""
    response = admin.post(registration_endpoint, json=metadata, timeout=10)
    check_status(response, 201, f"registration: {metadata['client_name']} gets 201")
    registered = response.json()
    check(registered.get("client_id"), f"registration: {metadata['client_name']} has a client_id")
    for field in ("redirect_uris", "client_name", "token_endpoint_auth_method", "grant_types", "scope"):
        check_equal(registered.get(field), metadata[field], f"registration: {field} echoed")
    return registered


def register_by_operator(name, redirect_uri, scope, auth_method, grant_types):
    """`til-server clients add` on the server's database; its `field: value` lines as a dict."""
    command = [os.environ["TIL_SERVER_BIN"], "clients", "add", "--name", name, "--redirect-uri", redirect_uri,
               "--scope", scope, "--auth-method", auth_method]
    for grant_type in grant_types:
        command += ["--grant-type", grant_type]
    environment = dict(os.environ, DATABASE_URL=os.environ["TIL_DATABASE_URL"], ENVIRONMENT="development")
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=30)
    check(done.returncode == 0, f"til-server clients add registers {name}", done.stderr)
    registered = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    check_equal(registered.get("client_name"), name, "clients add prints the client's name")
    check(registered.get("client_id"), "clients add prints the client_id")
    return registered
