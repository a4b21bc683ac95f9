"""Helpers of scripts/cluster-test.py: a keep-alive HTTP client, logins, and probes of
HAProxy (its admin socket), PostgreSQL (psql as user postgres) and processes (/proc). They read
the cluster from the variables `scripts/cluster.sh env` prints (exported by cluster-test.sh)."""
import base64
import glob
import http.client
import json
import os
import socket
import subprocess
import time
import uuid

BALANCER = os.environ["BALANCER_URL"]
SERVERS = os.environ["SERVER_URLS"].split()
# Each server's /metrics listener (METRICS_PORT): production keeps it off the API's port.
METRICS = os.environ.get("METRICS_URLS", "").split()
ADMIN_PASSWORD = os.environ["ADMIN_PASSWORD"]
STATE = os.environ["CLUSTER_DIR"]
CLUSTER_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster.sh")


# --- HTTP ---------------------------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP/1.1 connection to a base URL; reconnects after an error."""

    def __init__(self, base, timeout=10, source=None):
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port, self.timeout, self.conn = host, int(port), timeout, None
        self.source = (source, 0) if source else None

    def send(self, method, path, json_body=None, bearer=None, basic=None, headers=None):
        head = dict(headers or {})
        body = None
        if json_body is not None:
            body = json.dumps(json_body).encode()
            head["Content-Type"] = "application/json"
        if bearer:
            head["Authorization"] = f"Bearer {bearer}"
        if basic:
            head["Authorization"] = "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout, source_address=self.source)
            self.answered_on_connection = 0
        try:
            self.conn.request(method, path, body=body, headers=head)
            response = self.conn.getresponse()
            data = response.read()
        except Exception:
            self.conn.close()
            self.conn = None
            raise
        self.answered_on_connection += 1
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return response.status, data, response


def once(base, method, path, source=None, **kwargs):
    return Client(base, source=source).send(method, path, **kwargs)


def login(base, username, password, source=None):
    status, data, response = once(base, "POST", "/api/users/login", basic=(username, password), source=source)
    return status, (json.loads(data) if status == 200 else None), response


def token(base, username, password):
    status, answer, _ = login(base, username, password)
    assert status == 200, f"login of {username}: {status}"
    return answer["value"]


def fresh_loopback_address():
    """A random 127.x.y.z other than 127.0.0.1 (all of 127/8 is loopback on Linux): a client
    address that is not the trusted proxy. Failed logins count per address too (5x the username
    limit), so each run fails from addresses of its own and never throttles 127.0.0.1."""
    value = uuid.uuid4().int
    return f"127.{value % 250 + 1}.{value // 250 % 250}.{value // 62500 % 250 + 1}"


def new_user(admin_token, prefix):
    username = f"{prefix}-{uuid.uuid4().hex[:10]}"
    status, data, _ = once(BALANCER, "POST", "/api/users", bearer=admin_token,
                           json_body={"name": prefix, "username": username, "password": "correct-horse"})
    assert status == 200, f"creating a user: {status} {data[:200]}"
    return username


# --- HAProxy and PostgreSQL probes ---------------------------------------------------------------------


def haproxy_servers():
    """`show stat` rows of the backend's servers, by name."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(5)
        s.connect(f"{STATE}/haproxy/admin.sock")
        s.sendall(b"show stat\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    lines = data.decode().splitlines()
    fields = lines[0].lstrip("# ").split(",")
    rows = [dict(zip(fields, line.split(","))) for line in lines[1:] if line]
    return {r["svname"]: r for r in rows if r["pxname"] == "til_servers" and r["svname"] not in ("FRONTEND", "BACKEND")}


def sql_on(cluster_name, sql):
    """Runs SQL as the superuser over the primary's or the replica's unix socket."""
    pgbin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    port = open(f"{STATE}/{cluster_name}/til.port").read().strip()
    command = [f"{pgbin}/psql", "-X", "-tA", "-h", f"{STATE}/{cluster_name}", "-p", port, "-U", "postgres", "-d", "til", "-c", sql]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    return subprocess.run(command, capture_output=True, text=True, timeout=10).stdout.strip()


def til_backends_on_replica():
    out = sql_on("replica", "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'til' AND backend_type = 'client backend'")
    return int(out or "0")


def is_alive(pid):
    """False once the process is gone or a zombie (its descriptors are closed by then)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def cluster(*args):
    subprocess.run([CLUSTER_SH, *args], check=True, timeout=120, stdout=subprocess.DEVNULL)


def wait_until(predicate, seconds, interval=0.2):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False
