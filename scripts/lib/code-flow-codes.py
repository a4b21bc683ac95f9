"""Authorization codes for scripts/bench-code-flow.sh, got the way a person gets them: the
admin registers a confidential client, signs in on the login page, approves the consent page
once, and from then on each authorization request redirects at once with a new code (the
consent is remembered). Standard library only: the benchmark needs no virtual environment.

    code-flow-codes.py URL ADMIN_PASSWORD COUNT SCOPE OUT_DIR [ID_TOKEN_ALG]
writes OUT_DIR/client (client_id:secret, for Basic), OUT_DIR/verifier (PKCE) and
OUT_DIR/codes (one code per line)."""

import base64
import hashlib
import html
import http.client
import json
import re
import sys
import urllib.parse

url, password, count, scope, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
algorithm = sys.argv[6] if len(sys.argv) > 6 else "RS256"
host = urllib.parse.urlsplit(url).netloc
redirect_uri = "http://127.0.0.1:9/callback"
verifier = base64.urlsafe_b64encode(b"code-flow-benchmark-verifier-32b").rstrip(b"=").decode() + "x" * 10
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
connection = http.client.HTTPConnection(host, timeout=10)
cookies = {}


def send(method, path, body=None, headers=None):
    """One request on the kept-alive connection, cookies carried; (status, headers, body)."""
    headers = dict(headers or {})
    if cookies:
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            pair = value.split(";", 1)[0]
            cookies[pair.split("=", 1)[0]] = pair.split("=", 1)[1]
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), text


def submit(page, path):
    """Posts the page's login or consent form (every named input, the approve button) back to
    its action."""
    forms = re.finditer(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', page, re.S)
    form = next((f for f in forms if 'name="password"' in f.group(2) or 'name="decision"' in f.group(2)), None)
    assert form, page[:800]
    fields = {name: html.unescape(value)
              for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(2))}
    fields.update({"username": "admin", "password": password, "decision": "approve"})
    action = html.unescape(form.group(1)) or path
    return send("POST", action, urllib.parse.urlencode(fields), {"Content-Type": "application/x-www-form-urlencoded"})


status, _, login = send("POST", "/api/users/login?scope=clients:write",
                        headers={"Authorization": "Basic " + base64.b64encode(f"admin:{password}".encode()).decode()})
assert status == 200, login
bearer = json.loads(login)["value"]
status, _, registered = send("POST", "/oauth/register", json.dumps({
    "client_name": "Code-flow benchmark", "redirect_uris": [redirect_uri], "scope": scope,
    "grant_types": ["authorization_code"], "token_endpoint_auth_method": "client_secret_basic",
    "id_token_signed_response_alg": algorithm}),
    {"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"})
assert status == 201, registered
client = json.loads(registered)
query = urllib.parse.urlencode({
    "response_type": "code", "client_id": client["client_id"], "redirect_uri": redirect_uri, "scope": scope,
    "state": "bench", "nonce": "bench", "code_challenge": challenge, "code_challenge_method": "S256"})
authorize = f"/oauth/authorize?{query}"

# The first request walks the pages: to the login form, signed in, then the consent form.
status, headers, page = send("GET", authorize)
for _ in range(5):
    if status in (302, 303) and headers["location"].startswith(redirect_uri):
        break
    if status in (302, 303):
        location = urllib.parse.urlsplit(headers["location"])
        status, headers, page = send("GET", location.path + ("?" + location.query if location.query else ""))
    else:
        status, headers, page = submit(page, authorize)
assert status in (302, 303) and headers["location"].startswith(redirect_uri), (status, page[:500])

with open(f"{out}/codes", "w") as codes:
    for _ in range(count):
        status, headers, page = send("GET", authorize)
        assert status in (302, 303), (status, page[:300])
        codes.write(urllib.parse.parse_qs(urllib.parse.urlsplit(headers["location"]).query)["code"][0] + "\n")
with open(f"{out}/client", "w") as file:
    file.write(base64.b64encode(f"{client['client_id']}:{client['client_secret']}".encode()).decode())
with open(f"{out}/verifier", "w") as file:
    file.write(verifier)
print(f"{count} codes for scope '{scope}'")
