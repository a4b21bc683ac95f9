# Sourced by scripts/readme-walk.sh and scripts/bench.sh: one til-server on a loopback port the
# kernel picks (`--port 0`: nothing assumes 8080 is free), over a fresh database of the local
# PostgreSQL cluster (scripts/local-postgres.sh fresh-db), and its clean-up.
#   fresh_server_start BIN DBNAME [VAR=value...]  (FRESH_URL_PARAMS=pool_size=16 adds URL parameters) sets FRESH_URL (http://127.0.0.1:PORT), FRESH_PID, FRESH_LOG,
#                                                 FRESH_DATABASE_URL (its database, for psql)
#   fresh_admin_login PASSWORD                    logs the admin in: sets BASIC and BEARER (Authorization
#                                                 values) and ADMIN_ID; defines json FILTER (stdin JSON)
#   fresh_server_stop                             SIGTERM, wait, drop the database (safe to call twice)
# The server runs in its own session (setsid), as a service would: then it may lower its
# session's priority below PostgreSQL's (see Benchmarks/RESULTS.md).

fresh_server_start() {
    local bin=$1 db=$2
    shift 2
    [ -x "$bin" ] || { echo "$bin is not built" >&2; return 1; }
    FRESH_DB=$db
    FRESH_LOG=$(mktemp "${TMPDIR:-/tmp}/til-$db-XXXXXX.log")
    FRESH_DATABASE_URL=$("$root/scripts/local-postgres.sh" fresh-db "$db")${FRESH_URL_PARAMS:+&$FRESH_URL_PARAMS}
    env DATABASE_URL="$FRESH_DATABASE_URL" LOG_LEVEL=notice SECRET_KEY="$(openssl rand -hex 32)" "$@" setsid "$bin" serve --hostname 127.0.0.1 --port 0 >"$FRESH_LOG" 2>&1 &
    FRESH_PID=$!
    local _
    for _ in $(seq 600); do
        FRESH_URL=$(sed -n 's|.*listening on \(http://127\.0\.0\.1:[0-9]*\).*|\1|p' "$FRESH_LOG" | head -n 1)
        [ -n "$FRESH_URL" ] && return 0
        if ! kill -0 "$FRESH_PID" 2>/dev/null; then
            echo "til-server exited before listening:" >&2; cat "$FRESH_LOG" >&2; return 1
        fi
        sleep 0.1
    done
    echo "til-server did not listen within 60 s:" >&2; cat "$FRESH_LOG" >&2; return 1
}

json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

fresh_admin_login() {
    local login
    BASIC="Basic $(printf 'admin:%s' "$1" | base64 -w0)"
    login=$(curl -sf -X POST -H "Authorization: $BASIC" "$FRESH_URL/api/users/login")
    BEARER="Bearer $(echo "$login" | json '["value"]')"
    ADMIN_ID=$(echo "$login" | json '["user"]["id"]')
}

fresh_server_stop() {
    if [ -n "${FRESH_PID:-}" ]; then
        kill -TERM "$FRESH_PID" 2>/dev/null || true
        wait "$FRESH_PID" 2>/dev/null || true
        FRESH_PID=
    fi
    if [ -n "${FRESH_DB:-}" ]; then
        "$root/scripts/local-postgres.sh" drop-db "$FRESH_DB" >/dev/null || true
        FRESH_DB=
    fi
    if [ -n "${FRESH_LOG:-}" ]; then rm -f "$FRESH_LOG"; FRESH_LOG=; fi
}
