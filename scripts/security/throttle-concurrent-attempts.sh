#!/usr/bin/env bash
# Issue 17 (medium): "Concurrent attempts all pass the throttle." The count was read, bcrypt
# ran, the failure was recorded afterwards: 30 wrong logins at once with a limit of 3 ran 22
# password checks. Here: 30 at once (bcrypt cost 10, so they overlap) must run at most 3
# checks (401, audited login.failed), the rest 429.
set -euo pipefail
# shellcheck source=../lib/login-case.sh
. "$ROOT/scripts/lib/login-case.sh"
login_case_start concurrent_attempts BCRYPT_COST=10 LOGIN_MAX_FAILURES=3 LOGIN_WINDOW=600

statuses=$(seq 30 | xargs -P 30 -I{} curl -s -o /dev/null -w '%{http_code}\n' -u 'admin:wrong-guess-{}' -X POST "$FRESH_URL/api/users/login")
checked=$(grep -c '^401$' <<<"$statuses" || true)
refused=$(grep -c '^429$' <<<"$statuses" || true)
audited=$(audit_lines login.failed)
echo "30 concurrent wrong logins, limit 3: $checked password checks, $refused refused (429); $audited login.failed lines"
[ "$checked" -le 3 ] && [ "$audited" = "$checked" ] && [ $((checked + refused)) = 30 ]
