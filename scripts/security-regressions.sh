#!/usr/bin/env bash
# The security review's high and medium findings (issue 17), replayed against a release build:
# each case in scripts/security/ starts what it needs (a fresh til-server over a fresh database,
# a local fake server, the `til` CLI) and exits non-zero when the defect is back. Not part of
# `make test`: the same cases run there as XCTest against the debug build.
#   scripts/security-regressions.sh            every case
#   scripts/security-regressions.sh NAME...    only those (file names without extension)
# Each case gets: TIL_SERVER_BIN, TIL_BIN (release binaries) and ROOT; sourcing
# scripts/lib/fresh-server.sh gives it fresh_server_start/stop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make --no-print-directory -s release >/dev/null
export ROOT=$root TIL_SERVER_BIN=$root/.build/release/til-server TIL_BIN=$root/.build/release/til
"$root/scripts/local-postgres.sh" start >/dev/null

cases=()
if [ $# -gt 0 ]; then
    for name in "$@"; do cases+=("$(ls "$root"/scripts/security/"$name".* | head -n 1)"); done
else
    for file in "$root"/scripts/security/*; do [ -x "$file" ] && cases+=("$file"); done
fi

failed=0
for file in "${cases[@]}"; do
    name=$(basename "${file%.*}")
    start=$(date +%s)
    if output=$("$file" 2>&1); then
        printf 'ok      %-40s %3ss\n' "$name" "$(( $(date +%s) - start ))"
    else
        printf 'FAILED  %-40s %3ss\n' "$name" "$(( $(date +%s) - start ))"
        printf '%s\n' "$output" | sed 's/^/        /'
        failed=$((failed + 1))
    fi
done
echo "${#cases[@]} cases, $failed failed"
[ "$failed" = 0 ]
