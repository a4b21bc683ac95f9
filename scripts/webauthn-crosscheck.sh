#!/usr/bin/env bash
# Checks TIL's software authenticator (Sources/WebAuthnTesting) once against py_webauthn's
# verifier, so the authenticator the WebAuthn and passkey tests rely on is known good: the
# webauthn-crosscheck executable writes ES256/EdDSA/RS256 registrations (none, packed self,
# packed x5c) and assertions with TIL's verdicts; scripts/webauthn-crosscheck/crosscheck.py
# verifies the same bytes with py_webauthn (pinned in .venv-webauthn/, git-ignored).
#   scripts/webauthn-crosscheck.sh [BIN_DIR]     (make test runs it on the debug build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$root/.build/debug}" && pwd)
check=$root/scripts/webauthn-crosscheck
venv=$root/.venv-webauthn

# The venv is current when it was installed from this very requirements file.
if ! cmp -s "$check/requirements.txt" "$venv/installed-requirements.txt"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$check/requirements.txt"
    cp "$check/requirements.txt" "$venv/installed-requirements.txt"
fi
"$bin/webauthn-crosscheck" | PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" "$check/crosscheck.py"
