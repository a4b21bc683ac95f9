#!/usr/bin/env bash
# Side-by-side benchmark: TIL, the Vapor 4 peer and the Hummingbird 2 peer, one at a time,
# each on a fresh database of the same PostgreSQL (../shared/peers/pg.sh), driven by
# ../shared/bench/run.sh (wrk, loopback only, bounded). Writes Benchmarks/results/*.json and
# the tables plus TIL's ratios into Benchmarks/RESULTS.md (section "API, side by side"), and
# the same as a chart, Benchmarks/RESULTS.svg (with nginx and pgbench as reference lines).
#   scripts/bench-compare.sh            all three
#   ONLY="til" scripts/bench-compare.sh one of them (til, vapor, hummingbird)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The peers and their bench driver live beside this repository, not in it.
shared=${SHARED:-$root/../shared}
if [ ! -x "$shared/peers/pg.sh" ] || [ ! -x "$shared/bench/run.sh" ]; then
    cat >&2 <<MSG
bench-compare needs the peer implementations and their bench driver: $shared/peers/ and
$shared/bench/ are missing. Put them beside this repository (../shared) or point SHARED at
them. TIL's own benchmark needs neither: make bench
MSG
    exit 1
fi
pgsh=$shared/peers/pg.sh
results=$root/Benchmarks/results
mkdir -p "$results"
ONLY=${ONLY:-til vapor hummingbird}
TIL_PORT=8085
VAPOR_PORT=8082
HB_PORT=8084

"$pgsh" start >/dev/null
fresh_db() { "$pgsh" dropdb "$1" >/dev/null 2>&1 || true; "$pgsh" createdb "$1"; }

bench() {  # bench LABEL PORT PID HELLO_PATH
    SERVER_PID=$3 HELLO_PATH=$4 BENCH_RESULTS=$results "$shared/bench/run.sh" "http://127.0.0.1:$2" "$1"
}

for peer in $ONLY; do
    case $peer in
    til)
        url=$(fresh_db til_bench_til)
        # In its own session, like the peers (their run.sh use setsid) and like a service: then
        # the server may lower its session below PostgreSQL's (Crypt's BackgroundPriority).
        # Development, because the benchmark logs in as admin with the book's `password`, which
        # production refuses; on loopback with LOG_LEVEL set, nothing on the measured path differs.
        DATABASE_URL=$url ENVIRONMENT=development BCRYPT_COST=12 LOG_LEVEL=warning \
            setsid "$root/.build/release/til-server" serve --hostname 127.0.0.1 --port $TIL_PORT >/tmp/til-bench.log 2>&1 &
        pid=$!
        for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$TIL_PORT/health" && break; sleep 0.1; done
        bench til $TIL_PORT $pid /health
        kill -TERM $pid; wait $pid || true ;;
    vapor)
        url=$(fresh_db til_bench_vapor)
        PORT=$VAPOR_PORT DATABASE_URL=$url "$shared/peers/vapor-til/run.sh" start
        pid=$(pgrep -f "vapor.*App serve" | head -n 1 || true)
        bench vapor $VAPOR_PORT "${pid:-}" /hello
        PORT=$VAPOR_PORT "$shared/peers/vapor-til/run.sh" stop ;;
    hummingbird)
        url=$(fresh_db til_bench_hb)
        PORT=$HB_PORT DATABASE_URL=$url "$shared/peers/hummingbird-til/run.sh" start
        pid=$(pgrep -f "hummingbird-til.*App" | head -n 1 || true)
        bench hummingbird $HB_PORT "${pid:-}" /hello
        PORT=$HB_PORT "$shared/peers/hummingbird-til/run.sh" stop ;;
    esac
done

# The physical references the chart draws as lines: nginx `return 200` and pgbench -S.
if [ -z "${SKIP_REFS:-}" ]; then
    BENCH_RESULTS=$results REPEAT=1 "$shared/bench/refs.sh" nginx || echo "nginx reference skipped" >&2
    BENCH_RESULTS=$results REPEAT=1 "$shared/bench/refs.sh" pgbench || echo "pgbench reference skipped" >&2
fi

python3 "$root/scripts/bench-report.py" "$results" "$root/Benchmarks/RESULTS.md"
python3 "$root/scripts/bench-chart.py" "$results" "$root/Benchmarks/RESULTS.svg"
