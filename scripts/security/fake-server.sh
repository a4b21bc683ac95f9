# Sourced by the client cases: a fake HTTP server (fake_server.py) on a loopback port the kernel
# picks, and its clean-up. Not a case itself (not executable).
#   fake_server_start LOG [--answer-login | --redirect-to URL]   sets FAKE_URL (http://127.0.0.1:PORT)
#   fake_servers_stop                                            stops every one started

FAKE_PIDS=()

fake_server_start() {
    local log=$1 out _
    shift
    out=$(mktemp "${TMPDIR:-/tmp}/til-fake-XXXXXX.out")
    python3 "$ROOT/scripts/security/fake_server.py" --log "$log" "$@" >"$out" 2>&1 &
    FAKE_PIDS+=($!)
    for _ in $(seq 100); do
        FAKE_URL=$(sed -n 's|^listening on \(http://127\.0\.0\.1:[0-9]*\)$|\1|p' "$out")
        [ -n "$FAKE_URL" ] && { rm -f "$out"; return 0; }
        sleep 0.05
    done
    echo "the fake server did not start:" >&2; cat "$out" >&2; rm -f "$out"; return 1
}

fake_servers_stop() {
    local pid
    for pid in "${FAKE_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    FAKE_PIDS=()
}
