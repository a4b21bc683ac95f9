#!/usr/bin/env bash
# The cluster test (issue 11): brings scripts/cluster.sh up (idempotent), then drives the auth
# flows, a process kill under load and a replica stop through it (scripts/cluster-test.py).
# Prints PASS/FAIL lines with numbers; exits non-zero when any check failed. Not part of
# `make test`: it needs Debian packages (PostgreSQL, PgBouncer, HAProxy) and several processes.
set -euo pipefail
cd "$(dirname "$0")/.."
timeout 900 scripts/cluster.sh up
eval "$(scripts/cluster.sh env)"
export BALANCER_URL ADMIN_PASSWORD CLUSTER_DIR SERVER_URLS METRICS_URLS
exec timeout 300 python3 scripts/cluster-test.py
