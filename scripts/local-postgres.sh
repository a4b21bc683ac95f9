#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for development and tests (used when DATABASE_URL is unset).
#   local-postgres.sh start   create (first time) and start the cluster; print its URL
#   local-postgres.sh stop    stop it (data is kept)
#   local-postgres.sh url     print the URL of the running cluster
#   local-postgres.sh status  exit 0 when it runs
#   local-postgres.sh destroy stop it and delete its data
#   local-postgres.sh fresh-db NAME   start it, (re)create an empty database NAME; print its URL
#   local-postgres.sh drop-db NAME    drop database NAME (the walk's and the bench's throwaways)
# Data lives in .pgdata/ at the repo root (git-ignored), or in $TIL_PGDATA. The server runs as
# an unprivileged user (postgres refuses root) on a free loopback port, chosen once and kept.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
PGDATA=${TIL_PGDATA:-$root/.pgdata}
PGBIN=${PGBIN:-$(pg_config --bindir 2>/dev/null || true)}
[ -x "$PGBIN/initdb" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
RUNAS=${PG_RUNAS:-postgres}
DB=${TIL_DB_NAME:-til}

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u "$RUNAS" -- "$@"; else "$@"; fi; }

ensure_user() {
    if [ "$(id -u)" = 0 ] && ! id "$RUNAS" >/dev/null 2>&1; then
        useradd --system --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$RUNAS"
    fi
}

# The unprivileged user must reach $PGDATA; a checkout under /root is not reachable, so the
# data then moves to /tmp (keyed by the checkout path, so two checkouts never share one).
pick_datadir() {
    if [ "$(id -u)" = 0 ] && [ -z "${TIL_PGDATA:-}" ] && ! runuser -u "$RUNAS" -- test -x "$root"; then
        PGDATA=/tmp/til-pgdata-$(printf '%s' "$root" | cksum | cut -d' ' -f1)
    fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port() { cat "$PGDATA/til.port"; }
url() { echo "postgres://til:til@127.0.0.1:$(port)/$DB?sslmode=disable"; }
is_running() { [ -f "$PGDATA/PG_VERSION" ] && as_pg "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; }
superuser_psql() { as_pg "$PGBIN/psql" -X -q -h "$PGDATA" -p "$(port)" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

init_cluster() {
    ensure_user
    mkdir -p "$PGDATA"
    [ "$(id -u)" = 0 ] && chown "$RUNAS": "$PGDATA"
    chmod 700 "$PGDATA"
    as_pg "$PGBIN/initdb" -D "$PGDATA" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    free_port > "$PGDATA/til.port.tmp"
    [ "$(id -u)" = 0 ] && chown "$RUNAS": "$PGDATA/til.port.tmp"
    mv "$PGDATA/til.port.tmp" "$PGDATA/til.port"
    cat >> "$PGDATA/postgresql.conf" <<CONF

# --- TIL development cluster (scripts/local-postgres.sh) ---
listen_addresses = '127.0.0.1'
port = $(port)
unix_socket_directories = '$PGDATA'
max_connections = 200
shared_buffers = 128MB
fsync = off
synchronous_commit = off
full_page_writes = off
logging_collector = off
CONF
}

start() {
    pick_datadir
    [ -f "$PGDATA/PG_VERSION" ] || init_cluster
    ensure_user
    if ! is_running; then
        as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w -t 60 start >/dev/null
    fi
    if [ "$(superuser_psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'til'")" != 1 ]; then
        superuser_psql -c "CREATE ROLE til LOGIN PASSWORD 'til'"
    fi
    for db in "$DB" "${DB}_test"; do
        if [ "$(superuser_psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
            superuser_psql -c "CREATE DATABASE \"$db\" OWNER til"
        fi
    done
    url
}

# A throwaway's name: [a-z0-9_] (it goes into SQL and a URL as it is), never `make run`'s or the tests'.
throwaway_name() {
    [[ "${1:-}" =~ ^[a-z0-9_]+$ ]] && [ "$1" != "$DB" ] && [ "$1" != "${DB}_test" ] && return
    echo "usage: $0 fresh-db|drop-db NAME ([a-z0-9_]+, not $DB or ${DB}_test)" >&2; exit 2
}

fresh_db() {
    throwaway_name "${1:-}"
    start >/dev/null
    superuser_psql -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)" \
        -c "CREATE DATABASE \"$1\" OWNER til"
    DB=$1 url
}

drop_db() {
    throwaway_name "${1:-}"
    pick_datadir
    if is_running; then superuser_psql -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)"; fi
}

stop() { pick_datadir; if is_running; then as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null; fi; }

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) pick_datadir; url ;;
    test-url) pick_datadir; DB=${DB}_test url ;;
    status) pick_datadir; is_running ;;
    destroy) stop; rm -rf "$PGDATA" ;;
    fresh-db) fresh_db "${2:-}" ;;
    drop-db) drop_db "${2:-}" ;;
    *) echo "usage: $0 start|stop|url|test-url|status|destroy|fresh-db NAME|drop-db NAME" >&2; exit 2 ;;
esac
