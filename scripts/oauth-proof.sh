#!/usr/bin/env bash
# Issue 18's proof by third parties: TIL's authorization server driven by clients TIL did not
# write. `make test-browser`, `make test-oauth-client`, and `make test` (both, one server).
#
#   scripts/oauth-proof.sh browser|client|relying-party|all [BIN_DIR]   BIN_DIR holds til-server (default .build/release)
#   OAUTH_SCREENSHOTS=DIR                                  where the screenshots go (default docs/images)
#
#   browser  headless Chromium (Debian's chromium + chromium-driver, through selenium) logs in on
#            the login page, sees a wrong password refused, approves consent and lands on the
#            redirect URI with a code; screenshots to docs/images/ (scripts/oauth-proof/browser_login.py)
#   client   authlib's OAuth2Session as a public and a confidential client: registration, code +
#            PKCE through the HTML forms, refresh, narrowed scope, revocation, introspection,
#            client_credentials (scripts/oauth-proof/authlib_client.py); OpenID Connect: nonce, the
#            id_token validated by authlib against jwks_uri, userinfo, refresh, logout (authlib_oidc.py);
#            a key rotation in the middle of a run, id_tokens of both keys validated (authlib_rotation.py)
#   relying-party  Apache httpd with mod_auth_openidc (Debian's apache2 and libapache2-mod-auth-openidc,
#            an OpenID Certified RP) on a loopback port, configured by the discovery URL, a client
#            the proof registers and PKCE S256: sign-in, the claims it shows, RP-initiated logout
#            (scripts/oauth-proof/apache_relying_party.py); `all` runs it too
#   conformance  the OpenID Foundation conformance suite's oidcc-basic, oidcc-config and
#            oidcc-rp-initiated-logout plans, one test per module, PKCE added (conformance.py); `all` too
#   browser  also issue 20's two-step sign-in: TOTP turned on on the account page, then a sign-in
#            with a code on the code step, and an authorization request through a recovery code
#            (browser_totp.py, with screenshots)
#   browser  also: passkeys with Chromium's DevTools virtual authenticator: added on the account
#            page, then the only way in on the login page (browser_passkeys.py, with a screenshot)
#   browser  also issue 21's re-authentication: the account page's password change, then a
#            sign-in made older than REAUTH_WINDOW (psql) sent through a fresh sign-in and back
#            before setting up TOTP and adding a passkey (browser_reauth.py, with a screenshot)
#   browser  also issue 21's forgotten password: "Forgot your password?", the link read from the
#            mail (the outbox row, or the development sender's .eml), a new password, a sign-in with
#            it; and an account with TOTP through the reset's code step (browser_reset.py, screenshots)
#   browser  also issue 21's email verification: the link of the mail (its outbox row) opens a
#            page with one button, which verifies; a change on the account page, pending until
#            its own link is followed (browser_email.py, with screenshots)
#   browser  also issue 21's personal access tokens: made on the account page, shown once, used by
#            a script within their scopes, listed with their last use, revoked (browser_tokens.py,
#            with screenshots)
#   both     RFC 8628: the device verification page, the code, consent (browser_device.py, with
#            screenshots); authlib polling the device grant as til-cli (authlib_device.py)
#
# Installs the pinned Python packages (scripts/oauth-proof/requirements.txt) into .venv-oauth/
# (git-ignored) when they differ; the Makefile installs chromium. Serves BIN_DIR/til-server in
# development on a free loopback port over a fresh database of the local PostgreSQL, and stops
# it and drops the database on every exit, failed or not. Any failed step exits non-zero, with
# the server's log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: scripts/oauth-proof.sh browser|client|relying-party|conformance|all [BIN_DIR]}
bin=$(cd "${2:-$root/.build/release}" && pwd)
proof=$root/scripts/oauth-proof
venv=$root/.venv-oauth
case $mode in browser|client|relying-party|conformance|all) ;; *) echo "unknown mode '$mode' (browser, client, relying-party, conformance or all)" >&2; exit 2;; esac
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"

if [ "$mode" = relying-party ] || [ "$mode" = all ]; then
    for module in /usr/sbin/apache2 /usr/lib/apache2/modules/mod_auth_openidc.so; do
        [ -e "$module" ] || { echo "$module is missing: apt-get install apache2 libapache2-mod-auth-openidc (make relying-party-deps does, as root)" >&2; exit 1; }
    done
fi
if [ "$mode" = browser ] || [ "$mode" = all ]; then
    for tool in /usr/bin/chromium /usr/bin/chromedriver; do
        [ -x "$tool" ] || { echo "$tool is missing: apt-get install chromium chromium-driver (make test-browser does, as root)" >&2; exit 1; }
    done
fi
# The venv is current when it was installed from this very requirements file.
if ! cmp -s "$proof/requirements.txt" "$venv/installed-requirements.txt"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$proof/requirements.txt"
    cp "$proof/requirements.txt" "$venv/installed-requirements.txt"
fi

on_exit() {
    local status=$?
    if [ "$status" != 0 ] && [ -n "${FRESH_LOG:-}" ] && [ -f "$FRESH_LOG" ]; then
        echo "--- the last lines of til-server's log:" >&2; tail -n 40 "$FRESH_LOG" >&2
    fi
    fresh_server_stop
    exit "$status"
}
trap on_exit EXIT

admin_password=${ADMIN_PASSWORD:-password}
# A SECRET_KEY the proof knows (the operator's `til-server keys rotate` needs it) and a short
# JWKS_MAX_AGE: the server then signs with a rotated key within seconds (authlib_rotation.py).
secret_key=$(openssl rand -hex 32)
fresh_server_start "$bin/til-server" "til_oauth_proof_$$" ENVIRONMENT=development LOG_LEVEL=info SECRET_KEY="$secret_key" JWKS_MAX_AGE=2

# The clients see only what a third party would: the server's URL and the admin's password
# (the development one). Plain http is fine on loopback (RFC 8252 §8.3), which authlib accepts
# only when told; selenium must not fetch a driver of its own (SE_OFFLINE).
export TIL_URL=$FRESH_URL TIL_ADMIN_PASSWORD=$admin_password TIL_SERVER_BIN=$bin/til-server
export TIL_DATABASE_URL=$FRESH_DATABASE_URL TIL_SECRET_KEY=$secret_key
TIL_SCREENSHOTS=$(mkdir -p "${OAUTH_SCREENSHOTS:-$root/docs/images}" && cd "${OAUTH_SCREENSHOTS:-$root/docs/images}" && pwd)
export TIL_SCREENSHOTS
export AUTHLIB_INSECURE_TRANSPORT=1 SE_OFFLINE=true PYTHONDONTWRITEBYTECODE=1
run() {
    local started=$SECONDS
    echo "== $1 against $TIL_URL"
    timeout 180 "$venv/bin/python" "$proof/$1"
    echo "== $1 passed in $((SECONDS - started)) s"
}
in_mode() { [ "$mode" = all ] || [[ " $* " == *" $mode "* ]]; }
in_mode browser && run browser_login.py
in_mode browser && run browser_device.py
in_mode browser && run browser_totp.py
in_mode browser && run browser_passkeys.py
in_mode browser && run browser_reauth.py
in_mode browser && run browser_reset.py
in_mode browser && run browser_email.py
in_mode browser && run browser_tokens.py
in_mode client && run authlib_client.py
in_mode client && run authlib_device.py
in_mode client && run authlib_rotation.py
in_mode relying-party && run apache_relying_party.py
in_mode conformance && run conformance.py
exit 0
