#!/usr/bin/env bash
# `make fuzz-api`: schemathesis against a TIL started here, driven by the OpenAPI document it serves.
#
#   scripts/fuzz-api.sh [SECONDS]      time budget of the schemathesis run (default 300)
#
# Installs the pinned schemathesis into .venv-fuzz/ (git-ignored), builds til-server in release,
# serves it on a free loopback port in development against a fresh `til_fuzz` database of the
# local PostgreSQL (scripts/local-postgres.sh), logs in as admin for a bearer token, runs every
# check in every phase (examples, coverage, fuzzing, stateful links), then stops the server.
# Exits non-zero when schemathesis found anything. Report and server log: .fuzz-api/.
# Environment: FUZZ_API_SEED (default 1; reproducible), FUZZ_API_EXAMPLES (per operation, default 100).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
SECONDS_BUDGET=${1:-300}
SEED=${FUZZ_API_SEED:-1}
EXAMPLES=${FUZZ_API_EXAMPLES:-100}
VENV=.venv-fuzz
OUT=.fuzz-api
mkdir -p "$OUT"

if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

swift build -c release --product til-server

export TIL_DB_NAME=til_fuzz
DATABASE_URL=$(scripts/local-postgres.sh start)
export DATABASE_URL ENVIRONMENT=development LOG_LEVEL=warning
# Fast hashing and a throttle that never locks the admin out: the fuzzer sends wrong passwords
# by the thousand, and every bearer operation needs the admin to log in again after a logout.
export BCRYPT_COST=4 LOGIN_MAX_FAILURES=10000 LOGIN_WINDOW=1
psql -q "$DATABASE_URL" -c 'DROP SCHEMA public CASCADE; CREATE SCHEMA public' >/dev/null  # a fresh database each run

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE=http://127.0.0.1:$PORT
.build/release/til-server serve --hostname 127.0.0.1 --port "$PORT" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fs "$BASE/health" >/dev/null 2>&1 && break
    kill -0 "$SERVER" 2>/dev/null || { echo "til-server did not start:" >&2; cat "$OUT/server.log" >&2; exit 1; }
    sleep 0.1
done

export TIL_FUZZ_URL=$BASE TIL_FUZZ_ADMIN_PASSWORD=${ADMIN_PASSWORD:-password}
TIL_FUZZ_TOKEN=$(curl -fs -u "admin:$TIL_FUZZ_ADMIN_PASSWORD" -X POST "$BASE/api/users/login" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')
export TIL_FUZZ_TOKEN SCHEMATHESIS_HOOKS=hooks PYTHONPATH=scripts/fuzz-api

set -x
"$VENV/bin/schemathesis" run "$BASE/openapi.json" \
    --checks all --phases examples,coverage,fuzzing,stateful \
    --max-time "$SECONDS_BUDGET" --max-examples "$EXAMPLES" --seed "$SEED" \
    --workers 2 --request-timeout 10 --max-failures 50 \
    --report junit,ndjson --report-dir "$OUT"
