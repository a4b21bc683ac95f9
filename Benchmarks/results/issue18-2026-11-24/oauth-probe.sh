set -euo pipefail
root=${ROOT:-/work/wt/speed}
. "$root/scripts/lib/fresh-server.sh"
trap 'fresh_server_stop' EXIT
fresh_server_start "${BIN:-$root/.build/release/til-server}" til_probe ENVIRONMENT=production ADMIN_PASSWORD=probe-pass-123
base=$FRESH_URL
fresh_admin_login probe-pass-123
clients_bearer="Bearer $(curl -sf -X POST -H "Authorization: $BASIC" "$base/api/users/login?scope=clients:write" | json '["value"]')"
client=$(curl -sf -H "Authorization: $clients_bearer" -H 'Content-Type: application/json' "$base/oauth/register" -d '{"client_name":"Benchmark","grant_types":["client_credentials"],"redirect_uris":[],"scope":"categories:write"}')
cb="Basic $(printf '%s:%s' "$(echo "$client" | json '["client_id"]')" "$(echo "$client" | json '["client_secret"]')" | base64 -w0)"
tok=$(curl -sf -X POST -H "Authorization: $cb" -d grant_type=client_credentials "$base/oauth/token" | json '["access_token"]')
pgpids=$(pgrep -f "postgres: .*til_probe" | tr '\n' ' ' || true)
cpu() { awk "{print \$14+\$15}" /proc/$1/stat 2>/dev/null || echo 0; }
acr=$(curl -sf -H "Authorization: $BEARER" -H 'Content-Type: application/json' -d '{"short":"P","long":"Probe"}' $base/api/acronyms | json '["id"]')
for t in ${PROBE_TESTS:-get create introspect token}; do
  ct=application/x-www-form-urlencoded; auth=$cb; m=POST
  case $t in introspect) body="token=$tok"; path=/oauth/introspect;; token) body=grant_type=client_credentials; path=/oauth/token;;
    get) m=GET; body=; path=/api/acronyms/$acr; auth=;; create) body='{"short":"W","long":"wrk"}'; ct=application/json; auth=$BEARER; path=/api/acronyms;; esac
  [ -n "${PERF:-}" ] && { perf record -e cpu-clock -g -p $FRESH_PID -o /tmp/speed-probe-$t.data -- sleep 5 >/dev/null 2>&1 & perfpid=$!; }
  [ -n "${PGPERF:-}" ] && { perf record -e cpu-clock -g -p $(pgrep -f "postgres: .*til_probe" | paste -sd,) -o /tmp/speed-pg-$t.data -- sleep 5 >/dev/null 2>&1 & pgperfpid=$!; }
  s0=$(cpu $FRESH_PID); p0=$(for p in $(pgrep -f "postgres: .*til_probe"); do cpu $p; done | paste -sd+ | bc)
  out=$(BENCH_METHOD=$m BENCH_BODY="$body" BENCH_AUTH="$auth" BENCH_CONTENT_TYPE=$ct wrk -t2 -c64 -d5s -s $root/scripts/bench-wrk.lua "$base$path" | grep '^{')
  s1=$(cpu $FRESH_PID); p1=$(for p in $(pgrep -f "postgres: .*til_probe"); do cpu $p; done | paste -sd+ | bc)
  n=$(echo "$out" | json '["requests"]')
  echo "$t $(echo "$out" | json '["rps"]') req/s server_us/req $(( (s1-s0)*10000/n )) pg_us/req $(( (p1-p0)*10000/n ))"
done
[ -n "${PERF:-}" ] && wait $perfpid; [ -n "${PGPERF:-}" ] && wait $pgperfpid; psql -X "$FRESH_DATABASE_URL" -c "EXPLAIN (ANALYZE, BUFFERS) SELECT c.auth_method, c.secret_digest, t.digest, s.id FROM oauth_clients c LEFT JOIN tokens t ON t.digest = '$(printf %s "$tok" | sha256sum | cut -c1-64)' AND t.revoked_at IS NULL AND t.expires_at > now() LEFT JOIN sessions s ON s.id = t.session_id AND s.revoked_at IS NULL LEFT JOIN users u ON u.id = s.user_id WHERE c.id = '$(echo "$client" | json '["client_id"]')'"
curl -s "$base/metrics" | grep -E "^til_db_statements_per_lease_(sum|count)"
