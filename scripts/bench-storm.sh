#!/usr/bin/env bash
# GET one acronym during a login storm, the bench's `acronym_get_during_logins` in miniature,
# repeated so that a bimodal tail shows up run to run:
#   scripts/bench-storm.sh http://127.0.0.1:PORT [RUNS] [SECONDS]
# Each run: idle GET (wrk -t2 -c64, like the bench's acronym_get), then GET (wrk -t2 -c16)
# while `wrk -t1 -c8` saturates POST /api/users/login as admin/password. Prints both p99s,
# their ratio, and the logins answered. Loopback only; every wrk is bounded by -d/--timeout.
# With SERVER_PID set, also prints the server threads' run delay during the storm
# (/proc/PID/task/*/schedstat: time runnable but not running). Before each run it waits (at
# most 120 s) for the shared machine to be >= 90 % idle, and it reports the CPU seconds other
# processes used during the storm (foreign CPU: not the server, postgres, wrk or this script).
set -euo pipefail
base=${1:?usage: bench-storm.sh URL [RUNS] [SECONDS]}
runs=${2:-3} seconds=${3:-10}
case "$base" in http://127.0.0.1:*) ;; *) echo "loopback only" >&2; exit 2;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
id=$(curl -sf "$base/api/acronyms" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
cat >"$work/login.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Authorization"] = "Basic YWRtaW46cGFzc3dvcmQ="
LUA
# shellcheck source=lib/quiet.sh
. "$(dirname "$0")/lib/quiet.sh"
quiet() { wait_quiet >/dev/null; }
foreign_ticks() {  # CPU ticks of every process but the server, postgres, wrk and this script
    python3 - "${SERVER_PID:-0}" "$$" <<'PY'
import os, sys
skip = {int(sys.argv[1]), int(sys.argv[2]), os.getpid(), os.getppid()}
total = 0
for d in filter(str.isdigit, os.listdir("/proc")):
    try:
        st = open(f"/proc/{d}/stat").read()
    except OSError:
        continue
    comm, rest = st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2:].split()
    if int(d) in skip or rest[1] == "2" or comm in ("wrk", "postgres", "sleep", "awk", "cut", "cat", "tr", "sort", "join"):
        continue
    total += int(rest[11]) + int(rest[12]) + int(rest[13]) + int(rest[14])
print(total)
PY
}
p99() { awk '$1 == "99%" { v = $2; if (v ~ /us$/) v /= 1000; else if (v ~ /ms$/) v += 0; else if (v ~ /s$/) v *= 1000; print v }'; }
delays() {  # "comm delay_ns" per server thread
    for t in /proc/"$SERVER_PID"/task/*; do
        printf '%s:%s %s\n' "$(cat "$t/comm" | tr ' ' _)" "${t##*/}" "$(cut -d' ' -f2 "$t/schedstat")"
    done | sort
}
hz=$(getconf CLK_TCK)
for run in $(seq "$runs"); do
    quiet
    idle=$(wrk -t2 -c64 -d"${seconds}s" --timeout 10s --latency "$base/api/acronyms/$id" | p99)
    [ -n "${SERVER_PID:-}" ] && delays >"$work/before"
    wrk -t1 -c8 -d"$((seconds + 4))s" --timeout 10s -s "$work/login.lua" "$base/api/users/login" >"$work/storm" &
    storm=$!
    f0=$(foreign_ticks)
    sleep 2
    during=$(wrk -t2 -c16 -d"${seconds}s" --timeout 10s --latency "$base/api/acronyms/$id" | p99)
    [ -n "${SERVER_PID:-}" ] && delays >"$work/after"
    wait "$storm"
    foreign=$(awk "BEGIN { printf \"%.1f\", ($(foreign_ticks) - $f0) / $hz }")
    logins=$(awk '/requests in/ { print $1 }' "$work/storm")
    printf 'run %s: idle GET p99 %s ms, during logins p99 %s ms, ratio %.1fx; %s logins in %ss; foreign CPU %s s\n' \
        "$run" "$idle" "$during" "$(awk "BEGIN { print $during / $idle }")" "$logins" "$((seconds + 4))" "$foreign"
    if [ -n "${SERVER_PID:-}" ]; then
        join "$work/before" "$work/after" 2>/dev/null | awk '{ d = ($3 - $2) / 1e6; if (d > 1) printf "    %-16s run delay %8.1f ms\n", $1, d }'
    fi
done
