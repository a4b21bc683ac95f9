#!/usr/bin/env bash
# Issue 17, medium: "Reuse detection stops a day after a refresh token is spent." The purge
# deleted spent refresh tokens after a day; a replay then was "unknown" and revoked nothing,
# so a thief who refreshed first kept the session when the real client came back.
# Against the release build: log in, refresh (the "thief" holds the new pair), age the spent
# token by two days in the database (psql: this case's own setup, since a release build cannot
# wait a day), let the server's own purger run a pass (TOKEN_PURGE_INTERVAL=1), then replay
# the spent token. Passes when the replay is a 401 and the thief's pair is revoked.
set -euo pipefail
# shellcheck source=../lib/login-case.sh
. "$ROOT/scripts/lib/login-case.sh"
login_case_start reuse_after_purge TOKEN_PURGE_INTERVAL=1
sql() { psql "$FRESH_DATABASE_URL" -X -q -t -A -v ON_ERROR_STOP=1 -c "$1"; }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
refresh() { curl -s "$@" -X POST -H 'Content-Type: application/json' -d "{\"refreshToken\":\"$spent\"}" "$FRESH_URL/api/users/refresh"; }

login=$(curl -s -u "admin:$LOGIN_CASE_ADMIN_PASSWORD" -X POST "$FRESH_URL/api/users/login")
spent=$(echo "$login" | json_field refreshToken)
session=$(echo "$login" | json_field id)
thief=$(refresh)
thief_access=$(echo "$thief" | json_field value)
echo "logged in (session $session), refreshed once: the first refresh token is spent"

# A second login whose access token expired an hour ago: its row going proves a purge pass ran.
marker=$(curl -s -u "admin:$LOGIN_CASE_ADMIN_PASSWORD" -X POST "$FRESH_URL/api/users/login" | json_field id)
sql "UPDATE refresh_tokens SET spent_at = spent_at - interval '2 days' WHERE session_id = '$session' AND spent_at IS NOT NULL"
sql "UPDATE tokens SET expires_at = now() - interval '1 hour' WHERE session_id = '$marker'"
echo "spent token aged by two days; waiting for the server's purge pass"
for _ in $(seq 150); do
    [ "$(sql "SELECT count(*) FROM tokens WHERE session_id = '$marker'")" = 0 ] && break
    sleep 0.2
done
if [ "$(sql "SELECT count(*) FROM tokens WHERE session_id = '$marker'")" != 0 ]; then
    echo "FAIL: no purge pass within 30 s (TOKEN_PURGE_INTERVAL not honoured?)"; exit 1
fi
kept=$(sql "SELECT count(*) FROM refresh_tokens WHERE session_id = '$session' AND spent_at IS NOT NULL")
echo "purge pass done; spent rows of the live session kept: $kept"

replay=$(refresh -o /dev/null -w '%{http_code}')
after=$(status -H "Authorization: Bearer $thief_access" "$FRESH_URL/api/users/me")
revoked=$(sql "SELECT revoked_at IS NOT NULL FROM sessions WHERE id = '$session'")
echo "replay of the spent token: $replay; the thief's access token afterwards: $after; session revoked: $revoked"
if [ "$replay" = 401 ] && [ "$after" = 401 ] && [ "$revoked" = t ]; then
    echo "ok: reuse detected two days after the token was spent"
else
    echo "FAIL: the replay did not revoke the session (the defect is back)"; exit 1
fi
