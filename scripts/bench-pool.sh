#!/usr/bin/env bash
# Pool sizes for writes and reads (issue 22): for each DATABASE_URL `pool_size` in POOLS
# (default "4 8 16 32"), a release til-server (production, bcrypt cost 4) over a fresh database,
# then `wrk -t2 -c64 -d8s --timeout 10s` on POST /api/acronyms with a bearer token and on
# GET /api/acronyms/:id. ROUNDS rounds (default 2), the pool sizes interleaved within each.
# Then pgbench on a scratch database with tables shaped like TIL's (Benchmarks/pgbench-insert.sql,
# 64 clients, 2 threads, 8 s), for the ratio TIL creates / PostgreSQL inserts.
# Prints one line per run; needs wrk, pgbench and the local PostgreSQL (scripts/local-postgres.sh).
#   scripts/bench-pool.sh [BIN_DIR...]   each BIN_DIR holds a til-server (default .build/release);
#                                        several: each is run in turn at every pool size (before/after)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bins=("${@:-$root/.build/release}")
pools=${POOLS:-4 8 16 32}
rounds=${ROUNDS:-2}
seconds=${BENCH_SECONDS:-8}
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"
trap 'fresh_server_stop; "$root/scripts/local-postgres.sh" drop-db til_pgbench >/dev/null 2>&1 || true' EXIT

wrk_line() {  # wrk_line URL [METHOD BODY AUTHORIZATION]: "req/s p99 ms non-2xx"
    BENCH_METHOD=${2:-GET} BENCH_BODY=${3:-} BENCH_AUTH=${4:-} \
        wrk -t2 -c64 -d"${seconds}s" --timeout 10s -s "$root/scripts/bench-wrk.lua" "$1" | grep '^{' | tail -n 1 |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print("%9.0f req/s  p99 %6.2f ms  non2xx %d" % (r["rps"], r["p99_ms"], r["non2xx"]))'
}

for round in $(seq "$rounds"); do
    for pool in $pools; do
      for bin in "${bins[@]}"; do
        password=pool-$$-$RANDOM
        # The fresh database's URL with pool_size: fresh_server_start passes VAR=value on, last wins.
        url=$("$root/scripts/local-postgres.sh" fresh-db "til_pool_$$")
        fresh_server_start "$bin/til-server" "til_pool_$$" ENVIRONMENT=production ADMIN_PASSWORD="$password" BCRYPT_COST=4 \
            DATABASE_URL="$url&pool_size=$pool"
        base=$FRESH_URL
        fresh_admin_login "$password"
        bearer=$BEARER
        acronym=$(curl -sf -H "Authorization: $bearer" -H 'Content-Type: application/json' \
            -d '{"short":"ONE","long":"One row to read"}' "$base/api/acronyms" | json '["id"]')
        label="round $round pool_size $pool $bin"
        echo "$label  create: $(wrk_line "$base/api/acronyms" POST '{"short":"WRK","long":"created by wrk"}' "$bearer")"
        echo "$label  get:    $(wrk_line "$base/api/acronyms/$acronym")"
        fresh_server_stop
      done
    done
done

url=$("$root/scripts/local-postgres.sh" fresh-db til_pgbench)
psql -q "$url" -c "CREATE TABLE users (id uuid PRIMARY KEY)" \
    -c "INSERT INTO users VALUES ('00000000-0000-4000-8000-000000000001')" \
    -c "CREATE TABLE acronyms (id uuid PRIMARY KEY, short text NOT NULL, long text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE, seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE)" \
    -c "CREATE INDEX acronyms_user_id ON acronyms (user_id)"
for round in $(seq "$rounds"); do
    tps=$(pgbench -n -M prepared -f "$root/Benchmarks/pgbench-insert.sql" -c 64 -j 2 -T "$seconds" "$url" 2>/dev/null |
        sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    echo "round $round pgbench insert (64 clients): $tps tps"
done
