"""schemathesis hooks for `make fuzz-api` (loaded through SCHEMATHESIS_HOOKS by scripts/fuzz-api.sh).

Two things the OpenAPI document states but schemathesis cannot act on by itself:

* Credentials. Login takes the admin's HTTP Basic credentials; every other operation gets the
  admin's bearer token (public operations ignore it). The first token is the one the script
  logged in for; when an answer is 401 — an operation under test may have ended the session:
  logout, logout-all, ending a session — schemathesis asks again and this logs in anew.
* The one secret the success path of a password change needs: a valid (positive) change gets
  the admin's real current password, and sets the same one again, so the run keeps its login.
* Rules JSON Schema cannot express, applied to the data meant to be VALID (positive cases):
  text limits in UTF-8 bytes (`x-max-utf8-bytes` / `x-min-utf8-bytes`: `maxLength` counts
  characters), and `cursor`, valid only when this server made it (it is taken from a
  `Link: rel="next"` header, never invented). Negative cases are left alone.
"""

import base64
import os

import requests
import schemathesis
from schemathesis import GenerationMode

BASE_URL = os.environ["TIL_FUZZ_URL"]
ADMIN = ("admin", os.environ["TIL_FUZZ_ADMIN_PASSWORD"])
BASIC = "Basic " + base64.b64encode(f"{ADMIN[0]}:{ADMIN[1]}".encode()).decode()
LOGIN_PATH = "/api/users/login"
PASSWORD_PATH = "/api/users/me/password"


@schemathesis.auth(refresh_interval=3600)
class AdminCredentials:
    first_token = os.environ.get("TIL_FUZZ_TOKEN")

    def get(self, case, context):
        token, AdminCredentials.first_token = AdminCredentials.first_token, None
        if token:
            return token
        response = requests.post(BASE_URL + LOGIN_PATH, auth=ADMIN, timeout=10)
        response.raise_for_status()
        return response.json()["value"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        if context.operation.path == LOGIN_PATH:
            case.headers["Authorization"] = BASIC
        else:
            case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def filter_case(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return True
    if isinstance(case.query, dict) and "cursor" in case.query:
        return False
    return fits_byte_limits(case)


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    positive = meta is not None and meta.generation.mode == GenerationMode.POSITIVE
    if positive and case.operation.path == PASSWORD_PATH and isinstance(case.body, dict):
        case.body = {**case.body, "currentPassword": ADMIN[1], "newPassword": ADMIN[1]}
    return case


def fits_byte_limits(case):
    if not isinstance(case.body, dict):
        return True
    raw = case.operation.schema.raw_schema
    body = case.operation.definition.raw.get("requestBody", {})
    ref = body.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
    if not ref.startswith("#/components/schemas/"):
        return True
    properties = raw["components"]["schemas"][ref.rsplit("/", 1)[1]].get("properties", {})
    for name, rule in properties.items():
        value = case.body.get(name)
        if not isinstance(value, str):
            continue
        size = len(value.encode("utf-8", "surrogatepass"))
        if size > rule.get("x-max-utf8-bytes", size) or size < rule.get("x-min-utf8-bytes", size):
            return False
    return True
