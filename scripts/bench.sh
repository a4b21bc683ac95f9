#!/usr/bin/env bash
# TIL's own benchmark, runnable from a clone (`make bench`); needs wrk and nothing outside this
# repository. A release til-server (production, bcrypt cost 12) on a free loopback port over a
# fresh database of the local PostgreSQL, seeded with 100 acronyms and 5 categories, then wrk
# (2 threads, keep-alive, BENCH_SECONDS each, default 5, --timeout 10s) against:
#   health          GET /health, no database                       64 connections
#   acronyms_list   GET /api/acronyms, 100 rows                    64
#   acronym_get     GET /api/acronyms/:id                          64
#   user_get        GET /api/users/:id                             64
#   acronym_create  POST /api/acronyms with a bearer token         64
#   logins          POST /api/users/login, HTTP Basic (bcrypt)      8
#   oauth_token     POST /oauth/token, client_credentials, a confidential client  64
#   oauth_introspect POST /oauth/introspect of that client's token                64
# Before each test it waits (at most QUIET_MAX_WAIT s, default 15) for an idle CPU, and records
# the idle share it saw. Prints a table; writes Benchmarks/results/bench-<UTC time>.json.
# TIL against the Vapor and Hummingbird peers is `make bench-compare` (needs ../shared).
#   scripts/bench.sh [BIN_DIR]   BIN_DIR holds til-server (default .build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$root/.build/release}" && pwd)
seconds=${BENCH_SECONDS:-5}
export QUIET_MAX_WAIT=${QUIET_MAX_WAIT:-15}
command -v wrk >/dev/null || { echo "wrk is missing: \`make bench\` installs it as root, else apt-get install wrk" >&2; exit 1; }
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"
# shellcheck source=lib/quiet.sh
. "$root/scripts/lib/quiet.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/til-bench-XXXXXX")
trap 'fresh_server_stop; rm -rf "$work"' EXIT
password=bench-$$-$RANDOM
fresh_server_start "$bin/til-server" "til_bench_$$" ENVIRONMENT=production ADMIN_PASSWORD="$password"
base=$FRESH_URL
fresh_admin_login "$password"
basic=$BASIC bearer=$BEARER admin=$ADMIN_ID
post() { curl -sf -o /dev/null -H "Authorization: $bearer" -H 'Content-Type: application/json' -d "$2" "$base$1"; }
for i in $(seq 100); do post /api/acronyms "{\"short\":\"A$i\",\"long\":\"Acronym number $i\"}"; done
for i in $(seq 5); do post /api/categories "{\"name\":\"Category $i\"}"; done
acronym=$(curl -sf "$base/api/acronyms?limit=1" | json '[0]["id"]')

# A confidential client for the OAuth tests (issue 18), registered by the admin.
clients_bearer="Bearer $(curl -sf -X POST -H "Authorization: $basic" "$base/api/users/login?scope=clients:write" | json '["value"]')"
client=$(curl -sf -H "Authorization: $clients_bearer" -H 'Content-Type: application/json' "$base/oauth/register" \
    -d '{"client_name":"Benchmark","grant_types":["client_credentials"],"redirect_uris":[],"scope":"categories:write"}')
client_basic="Basic $(printf '%s:%s' "$(echo "$client" | json '["client_id"]')" "$(echo "$client" | json '["client_secret"]')" | base64 -w0)"
client_token=$(curl -sf -X POST -H "Authorization: $client_basic" -d grant_type=client_credentials "$base/oauth/token" | json '["access_token"]')
form=application/x-www-form-urlencoded

run() {  # run NAME CONNECTIONS PATH [METHOD BODY AUTHORIZATION CONTENT_TYPE]
    local idle line
    idle=$(wait_quiet)
    line=$(BENCH_METHOD=${4:-GET} BENCH_BODY=${5:-} BENCH_AUTH=${6:-} BENCH_CONTENT_TYPE=${7:-application/json} \
        wrk -t2 -c"$2" -d"${seconds}s" --timeout 10s -s "$root/scripts/bench-wrk.lua" "$base$3" | grep '^{' | tail -n 1)
    [ -n "$line" ] || { echo "wrk gave no result for $1" >&2; exit 1; }
    echo "{\"name\":\"$1\",\"connections\":$2,\"cpu_idle_before_pct\":$idle,${line#\{}" >>"$work/results"
    echo "  $1 done" >&2
}
echo "TIL's benchmark: $base, ${seconds}s per test (til-server from $bin)" >&2
run health 64 /health
run acronyms_list 64 /api/acronyms
run acronym_get 64 "/api/acronyms/$acronym"
run user_get 64 "/api/users/$admin"
run acronym_create 64 /api/acronyms POST '{"short":"WRK","long":"created by wrk"}' "$bearer"
run logins 8 /api/users/login POST '' "$basic"
run oauth_token 64 /oauth/token POST 'grant_type=client_credentials' "$client_basic" "$form"
run oauth_introspect 64 /oauth/introspect POST "token=$client_token" "$client_basic" "$form"
rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$FRESH_PID/status")

mkdir -p "$root/Benchmarks/results"
out=$root/Benchmarks/results/bench-$(date -u +%Y-%m-%dT%H%M%SZ).json
commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
python3 - "$work/results" "$out" "$commit" "$seconds" "$rss" "$(wrk -v 2>&1 | head -n 1)" <<'PY'
import datetime, json, os, sys
path, out, commit, seconds, rss, wrk = sys.argv[1:]
results = [json.loads(line) for line in open(path)]
doc = {"meta": {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "commit": commit, "nproc": os.cpu_count(), "wrk": wrk.strip(), "wrk_threads": 2,
                "seconds_per_test": int(seconds), "server_peak_rss_kib": int(rss)},
       "results": results}
with open(out, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
print(f"{'test':<15} {'conns':>5} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'non2xx':>6} {'sockerr':>7} {'idle%':>6}")
for r in results:
    print(f"{r['name']:<15} {r['connections']:>5} {r['rps']:>10,.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
          f"{r['max_ms']:>8.2f} {r['non2xx']:>6} {r['socket_errors']:>7} {r['cpu_idle_before_pct']:>6.1f}")
print(f"server peak RSS {int(rss) / 1024:.1f} MiB; commit {commit}; {os.cpu_count()} cores")
print(f"written to {os.path.relpath(out)}")
bad = [r["name"] for r in results if r["non2xx"] or r["socket_errors"]]
if bad:
    sys.exit(f"errors (non-2xx answers or socket errors) in: {', '.join(bad)}")
PY
