#!/usr/bin/env bash
# TIL as several stateless processes on this machine (issue 11), everything on loopback:
#
#   client ─▶ HAProxy :balancer  (round-robin, GET /ready checks, X-Forwarded-For)
#               ├─▶ til-server :p1 ┐ writes, auth, logged-in reads ─▶ PgBouncer (transaction pooling) ─▶ primary
#               ├─▶ til-server :p2 ┤                                                                       │ WAL
#               └─▶ til-server :p3 ┘ anonymous reads (DATABASE_READ_URL) ────────────────────────────▶ replica
#
#   Each til-server runs in production, so /metrics is not on its API port: it listens on a port of its
#   own (METRICS_PORT, on 127.0.0.1), one per server so that each can be scraped (`env` prints them).
#
#   cluster.sh up       start whatever is not running (idempotent; as root it apt-installs what is missing)
#   cluster.sh down     stop everything (data kept under the state folder; `destroy` deletes it)
#   cluster.sh status   one line per component; exit 0 when all of them run
#   cluster.sh env      BALANCER_URL= PRIMARY_URL= REPLICA_URL= PGBOUNCER_URL= ADMIN_PASSWORD= SECRET_KEY= ... METRICS_URLS= lines, for `eval`
#   cluster.sh kill-server N | start-server N | stop-replica | start-replica   (for scripts/cluster-test.sh)
#
# Settings: TIL_CLUSTER_SIZE (3 servers), TIL_CLUSTER_DIR (state, default /tmp/til-cluster-<checkout
# hash>: user postgres may not read the checkout), TIL_SERVER (.build/release/til-server). Other TIL
# variables in the environment (BCRYPT_COST, LOGIN_MAX_FAILURES, LOG_LEVEL, ...) reach the servers.
# PostgreSQL and PgBouncer run as user postgres, like scripts/local-postgres.sh (whose helpers start
# the two PostgreSQL clusters). The clusters run with fsync=off: a demonstration, not a deployment.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
PGSCRIPT=$root/scripts/local-postgres.sh
STATE=${TIL_CLUSTER_DIR:-/tmp/til-cluster-$(printf '%s' "$root" | cksum | cut -d' ' -f1)}
SIZE=${TIL_CLUSTER_SIZE:-3}
TIL_SERVER=${TIL_SERVER:-$root/.build/release/til-server}
PACKAGES="postgresql pgbouncer haproxy curl"
RUNAS=postgres
SLOT=til_replica

log() { echo "cluster: $*" >&2; }
die() { log "$*"; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u "$RUNAS" -- "$@"; else "$@"; fi; }
pg() { TIL_PGDATA=$STATE/$1 TIL_DB_NAME=til "$PGSCRIPT" "${@:2}"; }
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
psql_on() {  # psql_on primary|replica SQL... (superuser over the cluster's unix socket)
    as_pg "$(pg_bin)/psql" -X -q -tA -h "$STATE/$1" -p "$(cat "$STATE/$1/til.port")" -U postgres -d til -v ON_ERROR_STOP=1 -c "$2"
}
pg_bin() { ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1; }

# Waits up to $2 seconds for `$1` (a command) to succeed.
wait_for() {
    local deadline=$((SECONDS + $2))
    until eval "$1" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

install_missing() {
    local missing=""
    for p in $PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root, or: sudo apt-get install$missing)"
    log "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get update -qq
    timeout 600 apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# Ports are chosen once and kept, so `env` prints the same URLs across up/down.
load_ports() {
    mkdir -p "$STATE"
    chmod 755 "$STATE"
    if [ ! -f "$STATE/ports.env" ]; then
        {
            echo "REPLICA_PORT=$(free_port)"
            echo "PGBOUNCER_PORT=$(free_port)"
            echo "BALANCER_PORT=$(free_port)"
            local ports=""
            for _ in $(seq 1 16); do ports="$ports $(free_port)"; done
            echo "SERVER_PORTS=\"${ports# }\""
        } > "$STATE/ports.env.tmp"
        mv "$STATE/ports.env.tmp" "$STATE/ports.env"
    fi
    # shellcheck disable=SC1091
    . "$STATE/ports.env"
    if [ -z "${METRICS_PORTS:-}" ]; then  # a state folder from before the servers had metrics ports
        local ports=""
        for _ in $(seq 1 16); do ports="$ports $(free_port)"; done
        echo "METRICS_PORTS=\"${ports# }\"" >> "$STATE/ports.env"
        METRICS_PORTS=${ports# }
    fi
    [ "$SIZE" -ge 1 ] && [ "$SIZE" -le 16 ] || die "TIL_CLUSTER_SIZE must be 1 to 16"
}
server_port() { echo "$SERVER_PORTS" | cut -d' ' -f"$1"; }
metrics_port() { echo "$METRICS_PORTS" | cut -d' ' -f"$1"; }

urls() {
    local primary_port
    primary_port=$(cat "$STATE/primary/til.port" 2>/dev/null || echo 0)
    PRIMARY_URL="postgres://til:til@127.0.0.1:$primary_port/til?sslmode=disable"
    REPLICA_URL="postgres://til:til@127.0.0.1:$REPLICA_PORT/til?sslmode=disable"
    PGBOUNCER_URL="postgres://til:til@127.0.0.1:$PGBOUNCER_PORT/til?sslmode=disable&statement_cache=off"
    BALANCER_URL="http://127.0.0.1:$BALANCER_PORT"
}

admin_password() {
    [ -f "$STATE/admin-password" ] || (umask 077; openssl rand -hex 16 > "$STATE/admin-password")
    cat "$STATE/admin-password"
}

# One SECRET_KEY for every server: it seals the signing keys they share in the database.
secret_key() {
    [ -f "$STATE/secret-key" ] || (umask 077; openssl rand -hex 32 > "$STATE/secret-key")
    cat "$STATE/secret-key"
}

# --- PostgreSQL: primary, and a streaming replica made by pg_basebackup ------------------------------

start_primary() {
    pg primary start >/dev/null
    # PgBouncer 1.18 cannot pass TIL's startup `options` (TimeZone, DateStyle) on, so it is told to
    # ignore them; the role carries the same settings instead, for every connection however it comes.
    psql_on primary "ALTER ROLE til SET TimeZone = 'UTC'" >/dev/null
    psql_on primary "ALTER ROLE til SET DateStyle = 'ISO, MDY'" >/dev/null
    # local-postgres.sh turns synchronous_commit off for speed; then a commit reaches the replica only
    # when the WAL writer flushes (every 200 ms), which would be all of the replica's lag.
    if [ "$(psql_on primary "SHOW synchronous_commit")" != on ]; then
        psql_on primary "ALTER SYSTEM SET synchronous_commit = on" >/dev/null
        psql_on primary "SELECT pg_reload_conf()" >/dev/null
    fi
}

create_replica() {
    local dir=$STATE/replica
    log "cloning the primary into a streaming replica (pg_basebackup)"
    rm -rf "$dir"
    mkdir -m 700 "$dir"
    [ "$(id -u)" = 0 ] && chown "$RUNAS": "$dir"
    psql_on primary "SELECT pg_drop_replication_slot('$SLOT') FROM pg_replication_slots WHERE slot_name = '$SLOT'" >/dev/null
    # -R writes standby.signal and primary_conninfo (the primary's unix socket, trust auth);
    # -C -S: a physical slot, so the primary keeps the WAL this replica has not received yet.
    as_pg timeout 300 "$(pg_bin)/pg_basebackup" -h "$STATE/primary" -p "$(cat "$STATE/primary/til.port")" -U postgres \
        -D "$dir" -X stream -R -C -S "$SLOT" --checkpoint=fast 2> "$STATE/basebackup.log" \
        || die "pg_basebackup failed: $(tail -n 5 "$STATE/basebackup.log")"
    as_pg rm -f "$dir/server.log" "$dir/postmaster.pid"
    as_pg sh -c "echo $REPLICA_PORT > '$dir/til.port'"
    as_pg sh -c "cat >> '$dir/postgresql.conf'" <<CONF

# --- TIL cluster replica (scripts/cluster.sh) ---
port = $REPLICA_PORT
unix_socket_directories = '$dir'
hot_standby = on
hot_standby_feedback = on
CONF
}

start_replica() {
    [ -f "$STATE/replica/standby.signal" ] || create_replica
    pg replica start >/dev/null
}

# --- PgBouncer in transaction mode, in front of the primary -------------------------------------------

start_pgbouncer() {
    local dir=$STATE/pgbouncer
    pid_alive "$dir/pgbouncer.pid" && return 0
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown "$RUNAS": "$dir"
    as_pg sh -c "umask 077; echo '\"til\" \"til\"' > '$dir/userlist.txt'"
    as_pg sh -c "cat > '$dir/pgbouncer.ini'" <<INI
[databases]
til = host=$STATE/primary port=$(cat "$STATE/primary/til.port") dbname=til user=til

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
stats_users = til
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
; TIL sends "options=-c TimeZone=UTC -c DateStyle=ISO", which 1.18 refuses unless told to ignore it
; (the role has the same settings: see start_primary).
ignore_startup_parameters = extra_float_digits, options
server_connect_timeout = 5
; after a failed server login, try again in 2 s (default 15 s: a restarted primary would stay unused that long)
server_login_retry = 2
query_wait_timeout = 10
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    as_pg pgbouncer -d -q "$dir/pgbouncer.ini"
    wait_for "pid_alive '$dir/pgbouncer.pid'" 10 || die "PgBouncer did not start: $(tail -n 5 "$dir/pgbouncer.log")"
}

# --- til-server processes ------------------------------------------------------------------------------

migrate() {
    ENVIRONMENT=production ADMIN_PASSWORD=$(admin_password) DATABASE_URL=$PRIMARY_URL DATABASE_READ_URL= \
        timeout 60 "$TIL_SERVER" migrate --yes >/dev/null
}

start_server() {
    local n=$1 port pidfile=$STATE/til-$1.pid
    pid_alive "$pidfile" && return 0
    port=$(server_port "$n")
    # Each server owns its session (setsid): a signal to this script's group does not reach it.
    # They share one OAuth issuer, the balancer's URL: clients reach them all by it.
    ENVIRONMENT=production ADMIN_PASSWORD=$(admin_password) SECRET_KEY=$(secret_key) DATABASE_URL=$PGBOUNCER_URL DATABASE_READ_URL=$REPLICA_URL \
        ISSUER=$BALANCER_URL TRUSTED_PROXIES=127.0.0.1 METRICS_PORT=$(metrics_port "$n") METRICS_HOST=127.0.0.1 \
        setsid "$TIL_SERVER" serve --hostname 127.0.0.1 --port "$port" --no-auto-migrate \
        >> "$STATE/til-$n.log" 2>&1 < /dev/null &
    echo $! > "$pidfile"
    wait_for "curl -fsS -m 1 http://127.0.0.1:$port/health" 30 || die "til-server $n (:$port) did not answer: $(tail -n 5 "$STATE/til-$n.log")"
}

stop_pidfile() {  # stop_pidfile FILE [SECONDS]: TERM, then KILL after the grace
    local file=$1 grace=${2:-10}
    pid_alive "$file" || { rm -f "$file"; return 0; }
    local pid
    pid=$(cat "$file")
    kill -TERM "$pid" 2>/dev/null || true
    wait_for "! kill -0 $pid" "$grace" || kill -KILL "$pid" 2>/dev/null || true
    rm -f "$file"
}

# --- HAProxy ---------------------------------------------------------------------------------------------

haproxy_config() {
    cat <<CFG
global
    maxconn 4096
    # Per-server counters (requests, retries, errors) for scripts/cluster-test.sh ("show stat").
    stats socket $STATE/haproxy/admin.sock mode 600 level admin
$(id haproxy >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && printf '    user haproxy\n    group haproxy')

defaults
    mode http
    log stdout format raw local0 info
    option httplog
    # Only abnormal requests are logged (errors, retries, aborted by a server): the kill test counts them.
    option dontlog-normal
    option forwardfor
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout http-request 10s
    timeout check 2s
    # A connection refused by a dead server is retried on another one (the request was never sent).
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response

frontend til
    bind 127.0.0.1:$BALANCER_PORT
    default_backend til_servers

backend til_servers
    balance roundrobin
    option httpchk GET /ready
    http-check expect status 200
    # A request whose server died before answering is retried only if it is a read: a POST may
    # have been carried out already, so it fails to the client instead of running twice.
    http-request disable-l7-retry unless METH_GET
    # Idle server connections are shared, not tied to one client's connection: when a server dies,
    # its idle connections just leave the pool instead of closing the clients' connections with
    # them (with the default "safe", a client could send its next request into that close).
    http-reuse always
    default-server inter 1s fall 2 rise 2 check
CFG
    for n in $(seq 1 "$SIZE"); do echo "    server til$n 127.0.0.1:$(server_port "$n")"; done
}

start_haproxy() {
    local dir=$STATE/haproxy
    mkdir -p "$dir"
    haproxy_config > "$dir/haproxy.cfg.new"
    if pid_alive "$dir/haproxy.pid" && cmp -s "$dir/haproxy.cfg.new" "$dir/haproxy.cfg"; then
        rm "$dir/haproxy.cfg.new"
        return 0
    fi
    stop_pidfile "$dir/haproxy.pid" 5
    mv "$dir/haproxy.cfg.new" "$dir/haproxy.cfg"
    haproxy -c -q -f "$dir/haproxy.cfg" || die "invalid HAProxy configuration in $dir/haproxy.cfg"
    setsid haproxy -db -f "$dir/haproxy.cfg" >> "$dir/haproxy.log" 2>&1 < /dev/null &
    echo $! > "$dir/haproxy.pid"
    wait_for "curl -fsS -m 1 $BALANCER_URL/ready" 20 || die "HAProxy does not answer on $BALANCER_URL: $(tail -n 5 "$dir/haproxy.log")"
}

# --- commands --------------------------------------------------------------------------------------------

up() {
    install_missing
    load_ports
    [ -x "$TIL_SERVER" ] || (cd "$root" && swift build -c release --product til-server >&2)
    start_primary
    urls
    start_replica
    start_pgbouncer
    migrate
    for n in $(seq 1 "$SIZE"); do start_server "$n"; done
    start_haproxy
    status >&2
}

down() {
    load_ports
    stop_pidfile "$STATE/haproxy/haproxy.pid" 5
    for file in "$STATE"/til-*.pid; do  # all at once: each drains for a moment
        if pid_alive "$file"; then kill -TERM "$(cat "$file")" 2>/dev/null || true; fi
    done
    for file in "$STATE"/til-*.pid; do
        if [ -e "$file" ]; then stop_pidfile "$file" 10; fi
    done
    stop_pidfile "$STATE/pgbouncer/pgbouncer.pid" 5
    if [ -f "$STATE/replica/PG_VERSION" ]; then pg replica stop; fi
    if [ -f "$STATE/primary/PG_VERSION" ]; then pg primary stop; fi
    log "stopped (state kept in $STATE)"
}

status() {
    load_ports
    urls
    local all=0
    line() { printf '%-10s %-8s %s\n' "$1" "$2" "$3"; [ "$2" = up ] || all=1; }
    pg primary status 2>/dev/null && line primary up "$PRIMARY_URL" || line primary down "$PRIMARY_URL"
    if pg replica status 2>/dev/null; then
        line replica up "$REPLICA_URL (in recovery: $(psql_on replica 'SELECT pg_is_in_recovery()' 2>/dev/null || echo '?'))"
    else
        line replica down "$REPLICA_URL"
    fi
    pid_alive "$STATE/pgbouncer/pgbouncer.pid" && line pgbouncer up "$PGBOUNCER_URL" || line pgbouncer down "$PGBOUNCER_URL"
    for n in $(seq 1 "$SIZE"); do
        local urls="http://127.0.0.1:$(server_port "$n") (metrics :$(metrics_port "$n"))"
        pid_alive "$STATE/til-$n.pid" && line "til-$n" up "$urls" || line "til-$n" down "$urls"
    done
    pid_alive "$STATE/haproxy/haproxy.pid" && line haproxy up "$BALANCER_URL" || line haproxy down "$BALANCER_URL"
    return $all
}

print_env() {
    load_ports
    urls
    echo "BALANCER_URL=$BALANCER_URL"
    echo "PRIMARY_URL='$PRIMARY_URL'"
    echo "REPLICA_URL='$REPLICA_URL'"
    echo "PGBOUNCER_URL='$PGBOUNCER_URL'"
    echo "ADMIN_PASSWORD=$(admin_password)"
    echo "SECRET_KEY=$(secret_key)"
    echo "CLUSTER_DIR=$STATE"
    echo "SERVER_URLS='$(for n in $(seq 1 "$SIZE"); do printf 'http://127.0.0.1:%s ' "$(server_port "$n")"; done | sed 's/ $//')'"
    echo "METRICS_URLS='$(for n in $(seq 1 "$SIZE"); do printf 'http://127.0.0.1:%s ' "$(metrics_port "$n")"; done | sed 's/ $//')'"
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    destroy) down; rm -rf "$STATE" ;;
    status) status ;;
    env) print_env ;;
    kill-server) load_ports; if pid_alive "$STATE/til-$2.pid"; then kill -KILL "$(cat "$STATE/til-$2.pid")"; fi; rm -f "$STATE/til-$2.pid" ;;
    start-server) load_ports; urls; start_server "$2" ;;
    stop-replica) load_ports; pg replica stop ;;
    start-replica) load_ports; urls; start_replica ;;
    *) echo "usage: $0 up|down|destroy|status|env|kill-server N|start-server N|stop-replica|start-replica" >&2; exit 2 ;;
esac
