#!/usr/bin/env bash
# Issue 17 (medium): "The throttle key and the user lookup fold case differently." The lookup
# folds with PostgreSQL's lower(), the key was Swift's lowercased(): they disagree on İ (U+0130),
# so `divinity` had one counter per spelling of its three i's (24 guesses for a limit of 3).
# Here: the dotted spelling logs in as divinity, then 81 wrong guesses over its 27 spellings
# (each i as i, I or İ) must get exactly 3 password checks (401, audited login.failed).
set -euo pipefail
# shellcheck source=../lib/login-case.sh
. "$ROOT/scripts/lib/login-case.sh"
login_case_start case_folding BCRYPT_COST=8 LOGIN_MAX_FAILURES=3 LOGIN_WINDOW=600

id=$(login_case_user divinity correct-horse)
dotted=$(curl -sf -u 'dİvİnİty:correct-horse' -X POST "$FRESH_URL/api/users/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["user"]["id"])')
echo "dİvİnİty logs in as divinity: $([ "$dotted" = "$id" ] && echo yes || echo "no ($dotted)")"

spellings=()
for a in i I İ; do for b in i I İ; do for c in i I İ; do spellings+=("d${a}v${b}n${c}ty"); done; done; done
checked=0 refused=0
for round in 1 2 3; do
    for spelling in "${spellings[@]}"; do
        read -r status _ < <(login_attempt "$spelling" "guess-$round")
        case $status in 401) checked=$((checked + 1)) ;; 429) refused=$((refused + 1)) ;; *) echo "unexpected $status for $spelling" ;; esac
    done
done
audited=$(audit_lines login.failed)
echo "81 wrong guesses in 27 spellings, limit 3: $checked password checks, $refused refused (429); $audited login.failed lines"
[ "$dotted" = "$id" ] && [ "$checked" = 3 ] && [ "$refused" = 78 ] && [ "$audited" = 3 ]
