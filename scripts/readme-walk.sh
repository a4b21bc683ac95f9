#!/usr/bin/env bash
# The README's promise, checked: every ```sh block, pasted in order into one shell while a
# fresh `make run` serves, works. ```console and ```text blocks are illustrations; a fence
# without a language is refused (say which it is).
#   scripts/readme-walk.sh [BIN_DIR]   BIN_DIR holds til-server and til (default .build/debug)
# Starts BIN_DIR/til-server in development (as `make run` does) on a free loopback port over a
# fresh database of the local PostgreSQL (dropped afterwards), rewrites the README's
# http://127.0.0.1:8080 to that address, and runs the blocks with `set -euo pipefail`, `til`
# from BIN_DIR first on PATH, TIL_SERVER set, a throwaway XDG_CONFIG_HOME (credentials) and
# DATABASE_URL naming the server's database (for blocks that read a mail from the outbox).
# Every curl must answer the status its line's trailing comment promises (`... # 409: ...`),
# else a 2xx; any failing command stops the walk with the README line. Used by `make test`
# and `make readme-check`. Sections that send mail keep their walks scriptable (read the token
# from the server's outbox, say), so this keeps covering them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$root/.build/debug}" && pwd)
readme=${README_FILE:-$root/README.md}
# shellcheck source=lib/fresh-server.sh
. "$root/scripts/lib/fresh-server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/til-readme-walk-XXXXXX")
trap 'fresh_server_stop; rm -rf "$work"' EXIT
[ -x "$bin/til" ] || { echo "$bin/til is not built (swift build)" >&2; exit 1; }

# Its relay is a closed loopback port: the sender pauses and every mail stays in the outbox, so a
# block that reads a link from mail_outbox cannot lose the race with a sender that would
# otherwise deliver (and delete) the row within a second of the request.
fresh_server_start "$bin/til-server" "til_readme_walk_$$" ENVIRONMENT=development LOG_LEVEL=info \
    SMTP_URL=smtp://127.0.0.1:9 MAIL_FROM=no-reply@til.example
address=${FRESH_URL#http://}

# walk.sh keeps the README's line numbers: its ```sh lines in place, every other line blank.
# expect lists "LINE STATUS" for each line of a command whose comment promises a status.
awk -v addr="$address" -v expect="$work/expect" '
    /^```/ {
        if (inblock) { inblock = 0; print ""; next }
        lang = substr($0, 4); inblock = 1; sh = (lang == "sh"); blocks += sh
        if (lang == "") { printf "README.md:%d: a code fence without a language (sh, console, text...)\n", NR > "/dev/stderr"; bad = 1 }
        print ""; next
    }
    inblock && sh {
        line = $0; gsub(/127\.0\.0\.1:8080/, addr, line); print line
        group[++lines] = NR
        if (match($0, /[ \t]#[ \t]*[1-5][0-9][0-9]([^0-9]|$)/)) { code = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", code) }
        if ($0 !~ /\\$/) {
            for (i = 1; i <= lines; i++) if (code != "") print group[i], code > expect
            lines = 0; code = ""
        }
        next
    }
    { print "" }
    END { print blocks > "/dev/stderr"; exit bad }
' "$readme" >"$work/walk.sh" 2>"$work/blocks" || { cat "$work/blocks" >&2; exit 1; }
touch "$work/expect" "$work/requests"
blocks=$(tail -n 1 "$work/blocks")
[ "$blocks" -gt 0 ] || { echo "README.md has no \`\`\`sh block" >&2; exit 1; }

cat >"$work/run.sh" <<'RUN'
set -Eeuo pipefail
trap 'printf "\nREADME.md:%s: this command failed (exit %s)\n" "$LINENO" "$?" >&2' ERR
# curl, checked: the status the README line promises, else a 2xx.
curl() {
    local line=${BASH_LINENO[0]} headers status expected rc=0
    headers=$(mktemp "$WALK/headers.XXXXXX")
    command curl -D "$headers" "$@" || rc=$?
    [ "$rc" = 0 ] || { echo "README.md:$line: curl failed (exit $rc)" >&2; return "$rc"; }
    status=$(awk '/^HTTP\// { s = $2 } END { print s }' "$headers")
    expected=$(awk -v n="$line" '$1 == n { print $2; exit }' "$WALK/expect")
    echo "$line $status" >>"$WALK/requests"
    if [ -n "$expected" ] && [ "$status" = "$expected" ]; then return 0; fi
    if [ -z "$expected" ] && [[ "$status" == 2?? ]]; then return 0; fi
    printf '\nREADME.md:%s: answered %s, expected %s\n' "$line" "$status" "${expected:-a 2xx}" >&2
    return 1
}
. "$WALK/walk.sh"
RUN

mkdir -m 700 "$work/config"
echo "README walk: $blocks \`\`\`sh blocks against $FRESH_URL (til-server and til from $bin)"
if ! (cd "$work" && WALK=$work PATH="$bin:$PATH" XDG_CONFIG_HOME="$work/config" TIL_SERVER=$FRESH_URL DATABASE_URL=$FRESH_DATABASE_URL \
      bash "$work/run.sh" >"$work/output" 2>&1); then
    cat "$work/output" >&2
    echo "--- til-server log (last 30 lines) ---" >&2
    tail -n 30 "$FRESH_LOG" >&2
    echo "README walk FAILED (full output above)" >&2
    exit 1
fi
echo "README walk passed: every command succeeded; $(wc -l <"$work/requests") curl requests, each answered as the README says"
