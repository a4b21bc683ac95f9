# Sourced by the server cases of scripts/security/: a fresh til-server in production (a random
# admin password, the case's settings), users made through the API, logins by curl, and the
# audit lines the server wrote. Needs ROOT and TIL_SERVER_BIN (scripts/security-regressions.sh
# sets both).
#   login_case_start NAME [VAR=value...]   the server (FRESH_URL, FRESH_LOG, FRESH_DATABASE_URL),
#                                          LOGIN_CASE_ADMIN_PASSWORD and ADMIN_TOKEN
#   json_field KEY                         the KEY of the JSON object on stdin
#   login_case_user USERNAME PASSWORD      creates a user; prints its id
#   login_attempt USERNAME PASSWORD [ADDR] one login (ADDR as X-Forwarded-For): "STATUS RETRY-AFTER"
#   audit_lines EVENT                      how many audit lines of EVENT the server wrote
root=${ROOT:?run through scripts/security-regressions.sh}
: "${TIL_SERVER_BIN:?run through scripts/security-regressions.sh}"
# shellcheck source=fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"

login_case_start() {
    local name=$1
    shift
    LOGIN_CASE_ADMIN_PASSWORD=case-$$-$RANDOM-$RANDOM
    LOGIN_CASE_HEADERS=$(mktemp "${TMPDIR:-/tmp}/til-login-case-XXXXXX")
    trap 'fresh_server_stop; rm -f "$LOGIN_CASE_HEADERS"' EXIT
    fresh_server_start "$TIL_SERVER_BIN" "til_case_${name}_$$" \
        ENVIRONMENT=production ADMIN_PASSWORD="$LOGIN_CASE_ADMIN_PASSWORD" "$@"
    ADMIN_TOKEN=$(curl -sf -u "admin:$LOGIN_CASE_ADMIN_PASSWORD" -X POST "$FRESH_URL/api/users/login" | json_field value)
}

json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

login_case_user() {
    local body
    body=$(python3 -c 'import json,sys; print(json.dumps({"name": "Case", "username": sys.argv[1], "password": sys.argv[2]}))' "$1" "$2")
    curl -sf -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$body" "$FRESH_URL/api/users" |
        json_field id
}

login_attempt() {
    local status
    status=$(curl -s -o /dev/null -D "$LOGIN_CASE_HEADERS" -w '%{http_code}' -u "$1:$2" -X POST \
        ${3:+-H "X-Forwarded-For: $3"} "$FRESH_URL/api/users/login")
    echo "$status $(tr -d '\r' <"$LOGIN_CASE_HEADERS" | sed -n 's/^[Rr]etry-[Aa]fter: *//p')"
}

audit_lines() { grep -cE "audit $1([^a-z.-]|\$)" "$FRESH_LOG" || true; }
