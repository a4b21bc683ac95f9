#!/usr/bin/env bash
# Issue 17, medium: "Redirects carry credentials to other hosts." A 302 on login once sent
# `Basic bob:bobpassword` to the redirect target, a 307 sent the bearer token. `til` follows no
# redirect: it reports it and the target hears nothing. Also: `til login` warns about an
# http:// server that is not on this machine, and only then.
set -euo pipefail
root=$ROOT
. "$root/scripts/security/fake-server.sh"
work=$(mktemp -d)
trap 'fake_servers_stop; rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/config
unset TIL_SERVER TIL_TOKEN

fake_server_start "$work/target.log"
target=$FAKE_URL
fake_server_start "$work/redirector.log" --redirect-to "$target"
redirector=$FAKE_URL

failed=0
expect_refused() {  # NAME STATUS COMMAND...: the command fails and says it was redirected with STATUS
    local name=$1 status=$2 stderr
    shift 2
    if stderr=$("$@" 2>&1 >/dev/null); then
        echo "FAIL: $name succeeded through a $status redirect"; failed=1
    elif [[ $stderr != *"redirected ($status)"* ]]; then
        echo "FAIL: $name: no redirect reported: $stderr"; failed=1
    else
        echo "ok: $name: $stderr"
    fi
    if [[ $stderr == *warning* ]]; then echo "FAIL: a warning for the loopback $redirector: $stderr"; failed=1; fi
}
expect_refused "login (302, Basic)" 302 "$TIL_BIN" login --server "$redirector" --username bob --password-stdin <<<"bobpassword"
TIL_TOKEN=secret-bearer expect_refused "status (307, Bearer)" 307 "$TIL_BIN" status --server "$redirector"

if [ -s "$work/target.log" ]; then
    echo "FAIL: the redirect target received:"; cat "$work/target.log"; failed=1
else
    echo "ok: the redirect target received nothing"
fi

warning=$("$TIL_BIN" login --server http://example.test --username bob --password-stdin <<<"bobpassword" 2>&1 >/dev/null | head -n 1 || true)
if [[ $warning == "til: warning: http://example.test is not encrypted"* ]]; then
    echo "ok: $warning"
else
    echo "FAIL: no clear-text warning for http://example.test (first line: $warning)"; failed=1
fi
exit $failed
