#!/usr/bin/env bash
# Issue 17 (medium): "Anyone can lock anyone out." After LOGIN_MAX_FAILURES failures the right
# password got 429 from every address. Now a (username, address) pair is stopped after
# LOGIN_MAX_FAILURES, the username across addresses backs off exponentially
# (LOGIN_ACCOUNT_BACKOFF_*), and an address the user logged in from within 30 days is stopped
# only by its own pair limit. Behind a trusted proxy (127.0.0.1), X-Forwarded-For names the
# client. Here: the attacker's address is locked; guesses from 50 more addresses stay within the
# backoff's bound for the time they took (5 while that is under 30 s: the threshold, then a
# first wait of 30 s); the owner logs in at home while the attacker goes on.
set -euo pipefail
# shellcheck source=../lib/login-case.sh
. "$ROOT/scripts/lib/login-case.sh"
login_case_start lockout_by_strangers BCRYPT_COST=8 TRUSTED_PROXIES=127.0.0.1 LOGIN_MAX_FAILURES=3 LOGIN_WINDOW=600 \
    LOGIN_ACCOUNT_BACKOFF_THRESHOLD=5 LOGIN_ACCOUNT_BACKOFF_BASE=30 LOGIN_ACCOUNT_BACKOFF_MAX=120 LOGIN_ACCOUNT_BACKOFF_WINDOW=3600
failed=0
expect() {  # expect WHAT STATUS GOT
    if [ "$2" = "$3" ]; then echo "ok    $1: $3"; else echo "FAIL  $1: $3, expected $2"; failed=1; fi
}
# bound THRESHOLD BASE MAX SECONDS: the most guesses the backoff admits within SECONDS.
bound() {
    python3 -c 'import sys
t, b, m, s = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
n, elapsed, wait = t, 0.0, b
while elapsed + wait <= s: elapsed, n, wait = elapsed + wait, n + 1, min(m, wait * 2)
print(n)' "$@"
}

login_case_user owner correct-horse >/dev/null
home=198.51.100.9 attacker=203.0.113.7
read -r status _ < <(login_attempt owner correct-horse $home)
expect "the owner logs in at home" 200 "$status"

start=$(date +%s.%N)
admitted=0
for guess in 1 2 3; do
    read -r status _ < <(login_attempt owner "guess-$guess" $attacker)
    [ "$status" = 401 ] && admitted=$((admitted + 1))
done
read -r status wait < <(login_attempt owner guess-4 $attacker)
expect "the attacker's address after 3 failures (Retry-After $wait)" 429 "$status"

refused=0
for round in 1 2 3; do
    for address in $(seq 50); do
        read -r status _ < <(login_attempt owner "guess-$round-$address" "203.0.114.$address")
        case $status in 401) admitted=$((admitted + 1)) ;; 429) refused=$((refused + 1)) ;; *) expect "a guess" "401 or 429" "$status" ;; esac
    done
done
elapsed=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
limit=$(bound 5 30 120 "$elapsed")
echo "      guesses checked in ${elapsed}s from 51 addresses: $admitted (bound $limit), refused: $refused"
[ "$admitted" -ge 5 ] || { echo "FAIL  the threshold of 5 applies across addresses, not the pair's 3"; failed=1; }
[ "$admitted" -le "$limit" ] || { echo "FAIL  more guesses checked than the account backoff's bound"; failed=1; }
echo "      with the defaults (10, 1 s, 1800 s, a day): at most $(bound 10 1 1800 3600) guesses an hour, $(bound 10 1 1800 86400) a day"

for round in 1 2 3; do
    read -r status _ < <(login_attempt owner "guess-again-$round" "203.0.115.$round")
    expect "round $round: a guess from a new address" 429 "$status"
    read -r status _ < <(login_attempt owner correct-horse $home)
    expect "round $round: the owner at home" 200 "$status"
done
exit $failed
