#!/usr/bin/env bash
# The authorization-code exchange per second (issue 19): POST /oauth/token with a code, its PKCE
# verifier and the client's Basic secret, each code redeemed once. A release til-server
# (production) on a free loopback port over a fresh database; the codes come first, from the
# real authorization endpoint (scripts/lib/code-flow-codes.py: login page, consent once, then
# one redirect per code), then wrk (2 threads, 64 connections, BENCH_SECONDS, default 5)
# redeems them (scripts/lib/code-flow-exchange.lua). Three passes:
#   oauth          scope 'acronyms:write': the session, access and no refresh token
#   openid-rs256   scope 'openid profile acronyms:write': the same plus an RS256 id_token
#   openid-es256   the same, the client registered for ES256 id_tokens
# and, in the same run for the ratio, bearer create (POST /api/acronyms), as scripts/bench.sh.
# Prints one JSON line per pass with the server's CPU µs per request.
#   scripts/bench-code-flow.sh [BIN_DIR]   BIN_DIR holds til-server (default .build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$root/.build/release}" && pwd)
seconds=${BENCH_SECONDS:-5}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"
work=$(mktemp -d)
trap 'fresh_server_stop; rm -rf "$work"' EXIT
password=code-flow-bench-$$
fresh_server_start "$bin/til-server" "til_codeflow_$$" ENVIRONMENT=production ADMIN_PASSWORD="$password" AUTH_CODE_TTL=600
fresh_admin_login "$password"
cpu() { awk '{print $14+$15}' "/proc/$FRESH_PID/stat"; }

report() {  # NAME JSON CPU_TICKS
    python3 -c 'import json,sys; r=json.loads(sys.argv[2]); r["name"]=sys.argv[1]; r["server_cpu_us_per_request"]=round(int(sys.argv[3])*10000/max(1,r["requests"])); print(json.dumps(r))' "$1" "$2" "$3"
}

for pass in "oauth acronyms:write RS256" "openid-rs256 openid%profile%acronyms:write RS256" "openid-es256 openid%profile%acronyms:write ES256"; do
    read -r name scope alg <<<"$pass"
    scope=${scope//%/ }
    # More codes than the pass can spend: no connection runs out.
    python3 "$root/scripts/lib/code-flow-codes.py" "$FRESH_URL" "$password" "${CODE_FLOW_CODES:-$((seconds * 5000))}" "$scope" "$work" "$alg" >&2
    before=$(cpu)
    out=$(CODE_FLOW_DIR=$work wrk -t2 -c64 -d"${seconds}s" --timeout 10s -s "$root/scripts/lib/code-flow-exchange.lua" "$FRESH_URL" | grep '^{')
    report "$name" "$out" $(( $(cpu) - before ))
done
before=$(cpu)
out=$(BENCH_METHOD=POST BENCH_BODY='{"short":"CF","long":"Code flow"}' BENCH_AUTH="$BEARER" \
    wrk -t2 -c64 -d"${seconds}s" --timeout 10s -s "$root/scripts/bench-wrk.lua" "$FRESH_URL/api/acronyms" | grep '^{')
report acronym_create "$out" $(( $(cpu) - before ))
