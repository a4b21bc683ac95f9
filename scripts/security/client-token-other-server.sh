#!/usr/bin/env bash
# Issue 17, high: "The client sends one server's token to another." With A's login stored,
# `til login --server B` must not send B anything of A's (it once sent `POST /api/users/logout`
# with A's bearer token to B), and the login it replaces must really end, at A.
# A is a fresh til-server; B a fake that logs anyone in and records every request.
set -euo pipefail
root=$ROOT
. "$root/scripts/lib/fresh-server.sh"
. "$root/scripts/security/fake-server.sh"
work=$(mktemp -d)
trap 'fake_servers_stop; fresh_server_stop; rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/config
unset TIL_SERVER TIL_TOKEN

fresh_server_start "$TIL_SERVER_BIN" "til_sec_token_$$" ENVIRONMENT=development
a=$FRESH_URL
"$TIL_BIN" login --server "$a" --username admin --password-stdin <<<"password" >/dev/null
read -r a_access a_refresh < <(python3 -c '
import json, sys
credential = json.load(open(sys.argv[1]))["credentials"][0]
print(credential["accessToken"], credential["refreshToken"])' "$XDG_CONFIG_HOME/til/credentials.json")

fake_server_start "$work/b.log" --answer-login
b=$FAKE_URL
"$TIL_BIN" login --server "$b" --username someone --password-stdin <<<"their-password" >/dev/null
echo "B got: $(python3 -c 'import json, sys; print(", ".join(json.loads(l)["method"] + " " + json.loads(l)["path"] for l in open(sys.argv[1])))' "$work/b.log")"

failed=0
if grep -qF -e "$a_access" -e "$a_refresh" "$work/b.log"; then
    echo "FAIL: B ($b) received a token of A's:"; grep -F -e "$a_access" -e "$a_refresh" "$work/b.log"; failed=1
fi
if TIL_TOKEN=$a_access "$TIL_BIN" status --server "$a" >/dev/null 2>&1; then
    echo "FAIL: A's replaced session is still live: its access token still works at A"; failed=1
else
    echo "ok: A's replaced session was ended at A"
fi
exit $failed
