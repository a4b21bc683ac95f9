#!/usr/bin/env bash
# Issue 11's measurements, side by side in one go: interleaved rounds over five ways of serving
# the same database, so that drift on this shared machine hits all of them alike.
#
#   A  one til-server, PostgreSQL direct, statement cache on      (today's single process)
#   B  one til-server, PostgreSQL direct, DATABASE_STATEMENT_CACHE=off
#   C  one til-server through PgBouncer (transaction mode, cache off)
#   D  one til-server of the cluster, direct (PgBouncer + replica for anonymous reads)
#   E  HAProxy in front of the cluster's N til-servers
#
# Per round and target: wrk on GET /api/acronyms/:id (anonymous) and on POST /api/acronyms
# (bearer); then pgbench on the primary for the two auth writes (a login's token pair; a failed
# login's counter row). Loopback only; every run bounded (DURATION seconds, wrk --timeout).
# Writes Benchmarks/results/cluster-<date>/ (raw.tsv, summary.md, machine.txt) and prints the summary.
# Env: ROUNDS (3), DURATION (8), CONNECTIONS (64), PGBENCH_CLIENTS (8).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-8}
CONNECTIONS=${CONNECTIONS:-64}
PGBENCH_CLIENTS=${PGBENCH_CLIENTS:-8}
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; } || { echo "wrk missing" >&2; exit 1; }

scripts/cluster.sh up >/dev/null 2>&1 || scripts/cluster.sh up
eval "$(scripts/cluster.sh env)"
out=$root/Benchmarks/results/cluster-$(date -u +%Y-%m-%dT%H%M)
mkdir -p "$out"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
primary_sql() {
    as_pg "$pgbin/psql" -X -q -tA -h "$CLUSTER_DIR/primary" -p "$(cat "$CLUSTER_DIR/primary/til.port")" -U postgres -d til -c "$1"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- the single processes (A, B, C) -------------------------------------------------------------------
pids=()
work=$(mktemp -d)  # the wrk script, pgbench scripts and the extra servers' logs
chmod 755 "$work"   # pgbench runs as user postgres
cleanup() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
start_single() {  # start_single VAR DATABASE_URL [VAR=value...]: prints the base URL
    local port
    port=$(free_port)
    env ENVIRONMENT=production ADMIN_PASSWORD="$ADMIN_PASSWORD" SECRET_KEY="$SECRET_KEY" LOG_LEVEL=warning DATABASE_URL="$1" DATABASE_READ_URL= "${@:2}" \
        setsid .build/release/til-server serve --hostname 127.0.0.1 --port "$port" --no-auto-migrate \
        >> "$work/single-$port.log" 2>&1 < /dev/null &
    pids+=($!)
    for _ in $(seq 100); do curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$port/health" 2>/dev/null && break; sleep 0.1; done
    echo "http://127.0.0.1:$port"
}
A=$(start_single "$PRIMARY_URL")
B=$(start_single "$PRIMARY_URL" DATABASE_STATEMENT_CACHE=off)
C=$(start_single "$PGBOUNCER_URL")
D=$(echo "$SERVER_URLS" | cut -d' ' -f1)
E=$BALANCER_URL
targets="A B C D E"
label() {
    case $1 in
        A) echo "A  1 process, PostgreSQL direct (cache on)" ;;
        B) echo "B  1 process, PostgreSQL direct, statement cache off" ;;
        C) echo "C  1 process via PgBouncer (cache off)" ;;
        D) echo "D  1 cluster process direct (PgBouncer + replica)" ;;
        E) echo "E  HAProxy -> $(echo "$SERVER_URLS" | wc -w) cluster processes" ;;
    esac
}

# --- data: a token, one acronym (replayed on the replica before the first read) ---------------------------
token=$(curl -fsS -m 10 -u "admin:$ADMIN_PASSWORD" -X POST "$E/api/users/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
acronym=$(curl -fsS -m 10 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"short":"BENCH","long":"Benchmark acronym"}' "$E/api/acronyms" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
for _ in $(seq 50); do curl -fsS -m 1 -o /dev/null "$D/api/acronyms/$acronym" && break; sleep 0.1; done
admin_id=$(primary_sql "SELECT id FROM users WHERE username = 'admin'")

cat > "$work/report.lua" <<'LUA'
local method, body, auth = os.getenv("WRK_METHOD"), os.getenv("WRK_BODY"), os.getenv("WRK_AUTH")
if method and method ~= "" then wrk.method = method end
if body and body ~= "" then wrk.body = body; wrk.headers["Content-Type"] = "application/json" end
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end
function done(s, latency, requests)
  local e = s.errors
  io.write(string.format("WRK %d %d %.3f %.3f %d %d\n", s.duration, s.requests,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
LUA
# pgbench: a login's token pair (the statement TokenRepository.issuePair runs) and a failed login's row.
cat > "$work/issue-pair.sql" <<SQL
WITH session AS (
    INSERT INTO sessions (id, user_id, scopes, user_agent, expires_at, refresh_expires_at)
    VALUES (gen_random_uuid(), '$admin_id', 'acronyms:write', 'bench-cluster', now() + interval '1 hour', now() + interval '30 days')
    RETURNING id, expires_at, refresh_expires_at
), access AS (
    INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
    SELECT gen_random_uuid(), md5(random()::text) || md5(random()::text), '$admin_id', id, expires_at FROM session
    RETURNING id
)
INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
SELECT gen_random_uuid(), md5(random()::text) || md5(random()::text), session.id, NULL, access.id, refresh_expires_at
FROM session, access;
SQL
cat > "$work/login-failure.sql" <<'SQL'
INSERT INTO login_failures (username, address) VALUES ('bench-cluster-' || (random() * 1000)::int, '198.18.0.1');
SQL

echo -e "round\ttarget\ttest\trps\tp50_ms\tp99_ms\tnon2xx\tsocket_errors" > "$out/raw.tsv"
wrk_run() {  # wrk_run ROUND TARGET TEST URL [METHOD BODY AUTH]
    local line
    line=$(WRK_METHOD=${5:-GET} WRK_BODY=${6:-} WRK_AUTH=${7:-} timeout $((DURATION + 30)) \
        wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$work/report.lua" "$4" | grep '^WRK ')
    read -r _ us requests p50 p99 non2xx sock <<< "$line"
    printf '%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(echo "$requests / ($us / 1000000)" | bc -l)" \
        "$p50" "$p99" "$non2xx" "$sock" | tee -a "$out/raw.tsv"
}
pgbench_run() {  # pgbench_run ROUND NAME FILE
    local tps
    tps=$(as_pg timeout $((DURATION + 30)) "$pgbin/pgbench" -n -c "$PGBENCH_CLIENTS" -j 2 -T "$DURATION" -f "$3" \
        -h "$CLUSTER_DIR/primary" -p "$(cat "$CLUSTER_DIR/primary/til.port")" -U postgres til 2>/dev/null \
        | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    printf '%s\tprimary\t%s\t%.0f\t\t\t\t\n' "$1" "$2" "$tps" | tee -a "$out/raw.tsv"
}

echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/machine.txt"
started=$(date -u +%H:%M)
for round in $(seq 1 "$ROUNDS"); do
    # Rotate the order every round: no target always runs first (or last).
    order=$(echo $targets | tr ' ' '\n' | awk -v r="$round" '{a[NR]=$0} END {for (i = 0; i < NR; i++) print a[(i + r - 1) % NR + 1]}')
    for t in $order; do wrk_run "$round" "$t" get "${!t}/api/acronyms/$acronym"; done
    for t in $order; do
        wrk_run "$round" "$t" create "${!t}/api/acronyms" POST '{"short":"WRKPOST","long":"created by wrk"}' "Bearer $token"
        primary_sql "DELETE FROM acronyms WHERE short = 'WRKPOST'" >/dev/null
    done
    pgbench_run "$round" token-pair "$work/issue-pair.sql"
    pgbench_run "$round" login-failure "$work/login-failure.sql"
    primary_sql "DELETE FROM sessions WHERE user_agent = 'bench-cluster'; DELETE FROM login_failures WHERE username LIKE 'bench-cluster-%'" >/dev/null
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $started-$(date -u +%H:%M) UTC" | tee -a "$out/machine.txt"

# --- medians ----------------------------------------------------------------------------------------------
python3 - "$out" "$(for t in $targets; do label "$t"; done)" <<'PY' | tee "$out/summary.md"
import csv, statistics, sys
out, labels = sys.argv[1], sys.argv[2].splitlines()
rows = list(csv.DictReader(open(f"{out}/raw.tsv"), delimiter="\t"))
def med(target, test, key):
    values = [float(r[key]) for r in rows if r["target"] == target and r["test"] == test and r[key] != ""]
    return statistics.median(values) if values else None
def rounds(target, test):
    return " / ".join(r["rps"] for r in rows if r["target"] == target and r["test"] == test)
base = {test: med("A", test, "rps") for test in ("get", "create")}
print("| target | GET /api/acronyms/:id req/s (median; rounds) | p99 ms | vs A | bearer POST /api/acronyms req/s (median; rounds) | p99 ms | vs A | errors |")
print("|---|---|---|---|---|---|---|---|")
for label in labels:
    t = label.split()[0]
    cells = []
    for test in ("get", "create"):
        rps = med(t, test, "rps")
        cells += [f"{rps:.0f} ({rounds(t, test)})", f"{med(t, test, 'p99_ms'):.1f}", f"{rps / base[test]:.2f}x"]
    errors = sum(int(r["non2xx"] or 0) + int(r["socket_errors"] or 0) for r in rows if r["target"] == t)
    print(f"| {label} | " + " | ".join(cells) + f" | {errors} |")
print()
for name, what in (("token-pair", "a login's token pair (sessions + tokens + refresh_tokens, one statement)"),
                   ("login-failure", "a failed login's counter row (login_failures)")):
    print(f"- pgbench on the primary, {what}: median {med('primary', name, 'rps'):.0f} tx/s ({rounds('primary', name)})")
PY
