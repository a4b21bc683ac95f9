#!/usr/bin/env bash
# The tail of one-row reads (issue 22, `make bench-tail`): a release til-server (production,
# LOG_LEVEL=notice) on a free loopback port over a fresh database, then TAIL_RUNS runs (default
# 10) of `wrk -t2 -c64 -d8s --latency --timeout 10s` on GET /api/users/:id and as many on
# GET /api/acronyms/:id, alternating. Prints one line per run (req/s, p50, p99, max, the CPU
# other processes took meanwhile) and the medians; exits 1 when a run's max passes
# TAIL_MAX_MS (default 100). Writes Benchmarks/results/tail-<UTC time>.json.
# The tables change between runs as they do in a mixed workload (TAIL_CHURN=1, the default; 0
# reads the same tiny tables throughout): before each pair of runs the rows added last time are
# deleted and the tables vacuumed and analysed (as autovacuum does once a table is quiet), one
# second of reads runs against the small tables, and then TAIL_CHURN_ROWS acronyms (default 50,000)
# and 2/5 as many users are added in two statements. The reads that follow find the tables grown since their statements
# were last planned: what the shared suite's rounds do, with their POST test and its cleanup.
#   scripts/bench-tail.sh [BIN_DIR]   BIN_DIR holds til-server (default .build/release);
#                                     TAIL_LABEL names the build in the output (default: git describe)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$root/.build/release}" && pwd)
runs=${TAIL_RUNS:-10}
seconds=${TAIL_SECONDS:-8}
limit=${TAIL_MAX_MS:-100}
command -v wrk >/dev/null || { echo "wrk is missing: \`make bench-tail\` installs it as root, else apt-get install wrk" >&2; exit 1; }
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/til-tail-XXXXXX")
trap 'fresh_server_stop; rm -rf "$work"' EXIT
password=tail-$$-$RANDOM
fresh_server_start "$bin/til-server" "til_tail_$$" ENVIRONMENT=production ADMIN_PASSWORD="$password" BCRYPT_COST=4
base=$FRESH_URL
fresh_admin_login "$password"
basic=$BASIC bearer=$BEARER admin=$ADMIN_ID
acronym=$(curl -sf -H "Authorization: $bearer" -H 'Content-Type: application/json' \
    -d '{"short":"TAIL","long":"One row to read"}' "$base/api/acronyms" | json '["id"]')

# CPU time (clock ticks) of every process but the server, wrk and PostgreSQL, from /proc/*/stat:
# what a neighbour took from the run.
foreign_ticks() {
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v a="$FRESH_PID" '{ i = index($0, "("); j = index($0, ") "); comm = substr($0, i + 1, j - i - 1);
        split(substr($0, j + 2), s, " "); if ($1 != a && comm != "wrk" && comm != "postgres") t += s[12] + s[13] } END { print t + 0 }'
}
churn() {  # the rows of the last churn deleted, the tables analysed small, read briefly, then grown
    psql -q "$FRESH_DATABASE_URL" -c "DELETE FROM acronyms WHERE short = 'CHURN'" -c "DELETE FROM users WHERE username LIKE 'churn-%'" \
        -c "VACUUM ANALYZE acronyms" -c "VACUUM ANALYZE users" >/dev/null
    wrk -t2 -c64 -d1s "$base/api/users/$admin" >/dev/null
    wrk -t2 -c64 -d1s "$base/api/acronyms/$acronym" >/dev/null
    psql -q "$FRESH_DATABASE_URL" \
        -c "INSERT INTO acronyms (id, short, long, user_id) SELECT gen_random_uuid(), 'CHURN', 'row ' || i, '$admin' FROM generate_series(1, ${TAIL_CHURN_ROWS:-50000}) i" \
        -c "INSERT INTO users (id, name, username, password_hash) SELECT gen_random_uuid(), 'Churn', 'churn-' || i, 'none' FROM generate_series(1, $((${TAIL_CHURN_ROWS:-50000} * 2 / 5))) i" >/dev/null
}
ticks=$(getconf CLK_TCK)
for i in $(seq "$runs"); do
    [ "${TAIL_CHURN:-1}" = 0 ] || churn
    for target in "user_get /api/users/$admin" "acronym_get /api/acronyms/$acronym"; do
        set -- $target
        before=$(foreign_ticks)
        line=$(wrk -t2 -c64 -d"${seconds}s" --latency --timeout 10s -s "$root/scripts/bench-wrk.lua" "$base$2" | grep '^{' | tail -n 1)
        after=$(foreign_ticks)
        echo "{\"run\":$i,\"name\":\"$1\",\"foreign_cpu_s\":$(awk -v a="$before" -v b="$after" -v t="$ticks" 'BEGIN { printf "%.2f", (b - a) / t }'),${line#\{}" | tee -a "$work/runs" >&2
    done
done

mkdir -p "$root/Benchmarks/results"
out=$root/Benchmarks/results/tail-$(date -u +%Y-%m-%dT%H%M%SZ).json
commit=${TAIL_LABEL:-$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)}
python3 - "$work/runs" "$out" "$commit" "$limit" <<'PY'
import json, statistics, sys
path, out, commit, limit = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
runs = [json.loads(line) for line in open(path)]
json.dump({"commit": commit, "runs": runs}, open(out, "w"), indent=2)
print(f"{'test':<12} {'runs':>4} {'median req/s':>12} {'p99 ms (max of runs)':>20} {'max ms, each run'}")
worst = 0.0
for name in sorted({r["name"] for r in runs}):
    rs = [r for r in runs if r["name"] == name]
    worst = max(worst, *(r["max_ms"] for r in rs))
    maxima = " ".join(str(round(r["max_ms"])) for r in rs)
    print(f"{name:<12} {len(rs):>4} {statistics.median(r['rps'] for r in rs):>12,.0f} "
          f"{max(r['p99_ms'] for r in rs):>20.1f} {maxima}")
errors = sum(r["non2xx"] + r["socket_errors"] for r in runs)
print(f"worst max {worst:.1f} ms (bar {limit:.0f} ms); non-2xx + socket errors {errors}; commit {commit}; written to {out}")
sys.exit(0 if worst <= limit and errors == 0 else 1)
PY
