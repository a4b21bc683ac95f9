"""What every drill shares: a release til-server on a loopback port, the local PostgreSQL,
a measuring client for `GET /api/acronyms/:id`, status pollers and a wrk load that counts
statuses. Every loop here is bounded in time; every process started is stopped by its owner.
"""
import base64
import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PGSCRIPT = os.path.join(ROOT, "scripts", "local-postgres.sh")
SERVER = os.path.join(ROOT, ".build", "release", "til-server")
OUT = os.path.join(ROOT, ".drills")
WRK_LUA = os.path.join(os.path.dirname(__file__), "count-statuses.lua")
# The drills stop PostgreSQL, so they get a cluster of their own (same script, own data dir
# and port): a `make test` or `make run` on the usual local cluster is never disturbed.
ENV = dict(os.environ, TIL_DB_NAME="til_drills", TIL_PGDATA=os.path.join(OUT, "pgdata"))


def postgres(command):
    """Runs `local-postgres.sh start|stop|url` on the drills' own cluster."""
    return subprocess.run([PGSCRIPT, command], env=ENV, check=True, capture_output=True, text=True).stdout.strip()


def psql(url, sql):
    return subprocess.run(["psql", "-X", "-q", "-tA", url, "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One til-server (development env, so admin's password is the book's), log in OUT/."""

    def __init__(self, name, args=(), env=None):
        """`args` go to `serve` after the host and port (`--max-connections N`); `env` adds
        variables (`SMTP_URL`)."""
        self.url_db = postgres("start")
        self.port = free_port()
        os.makedirs(OUT, exist_ok=True)
        self.log_path = os.path.join(OUT, f"{name}.log")
        self.log = open(self.log_path, "w")
        env = dict(ENV, DATABASE_URL=self.url_db, ENVIRONMENT="development", BCRYPT_COST="4",
                   LOGIN_MAX_FAILURES="10000", LOGIN_WINDOW="1", **(env or {}))
        self.process = subprocess.Popen([SERVER, "serve", "--hostname", "127.0.0.1", "--port", str(self.port), *args],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"til-server exited at start-up, see {self.log_path}")
            if get(self.port, "/health")[0] == 200:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("til-server did not answer /health within 30 s")
        self.token = self.login()
        self.acronym_id = self.create_acronym("DRL", "Drill")["id"]

    def login(self):
        basic = base64.b64encode(b"admin:password").decode()
        _, body = request(self.port, "POST", "/api/users/login", headers={"Authorization": f"Basic {basic}"})
        return json.loads(body)["value"]

    def create_acronym(self, short, long):
        _, body = request(self.port, "POST", "/api/acronyms", body=json.dumps({"short": short, "long": long}),
                          headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        return json.loads(body)

    def log_size(self):
        self.log.flush()
        return os.path.getsize(self.log_path)

    def log_lines_since(self, offset):
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace").splitlines()

    def stop(self, timeout=15, signalled=False):
        """SIGTERM (unless the caller already sent it), then SIGKILL after `timeout`; returns
        (exit status, seconds waited)."""
        if not signalled and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        start = time.monotonic()
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.log.close()
        return status, time.monotonic() - start


def request(port, method, path, body=None, headers=None, timeout=10):
    """One request on a fresh connection: (status, body bytes); connection errors are raised."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def get(port, path, timeout=7):
    """One GET on a fresh connection: (status, seconds); status 0 on a connection error."""
    start = time.monotonic()
    try:
        status, _ = request(port, "GET", path, timeout=timeout)
    except (OSError, http.client.HTTPException):
        status = 0
    return status, time.monotonic() - start


class Measurer(threading.Thread):
    """The second client: sequential GETs on a keep-alive connection (reopened after an error),
    recording (monotonic time, status, latency). Status 0 = connection error or timeout."""

    def __init__(self, port, path, pause=0.01, timeout=7):
        super().__init__(daemon=True)
        self.port, self.path, self.pause, self.timeout = port, path, pause, timeout
        self.samples = []
        self.stopping = threading.Event()

    def run(self):
        conn = None
        while not self.stopping.is_set():
            start = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                conn.request("GET", self.path)
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                status = 0
                if conn is not None:
                    conn.close()
                conn = None
            self.samples.append((start, status, time.monotonic() - start))
            self.stopping.wait(self.pause)
        if conn is not None:
            conn.close()

    def stop(self):
        self.stopping.set()
        self.join(timeout=self.timeout + 2)

    def summary(self, since=None, until=None):
        rows = [s for s in self.samples if (since is None or s[0] >= since) and (until is None or s[0] < until)]
        ok = sorted(s[2] for s in rows if s[1] == 200)
        p99 = ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000 if ok else float("nan")
        statuses = {}
        for s in rows:
            statuses[s[1]] = statuses.get(s[1], 0) + 1
        return {"requests": len(rows), "p99_ms": round(p99, 1), "max_ms": round(max((s[2] for s in rows), default=0) * 1000, 1),
                "statuses": statuses}


def outcome(name, checks, figures):
    """A drill's result: passed when every named check holds; the failed ones are listed."""
    return {"name": name, "passed": all(checks.values()), "figures": figures,
            "failed_checks": [check for check, ok in checks.items() if not ok]}


def describe(summary):
    """A measurer summary as table text: `1258 req, p99 30.0 ms, max 124.1 ms (200×494, 503×764)`."""
    statuses = ", ".join(f"{'error' if code == 0 else code}×{n}" for code, n in sorted(summary["statuses"].items()))
    return f"{summary['requests']} req, p99 {summary['p99_ms']} ms, max {summary['max_ms']} ms ({statuses})"


def wrk(port, path, seconds, connections=16, threads=1, headers=()):
    """Starts wrk (bounded by -d) counting statuses; returns the Popen (stdout holds the counts)."""
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "6s", "-s", WRK_LUA]
    for header in headers:
        command += ["-H", header]
    return subprocess.Popen(command + [f"http://127.0.0.1:{port}{path}"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def wrk_counts(process):
    """Waits for wrk; returns {status: count, 'errors': socket errors + timeouts, 'requests': n}."""
    output, _ = process.communicate(timeout=120)
    counts = {}
    for line in output.splitlines():
        if line.startswith("STATUS "):
            _, code, number = line.split()
            counts[int(code)] = int(number)
        elif line.startswith("Socket errors:"):
            parts = line.replace(",", "").split()
            counts["errors"] = sum(int(parts[i + 1]) for i, word in enumerate(parts) if word in ("connect", "read", "write", "timeout"))
        elif line.strip().startswith("Latency"):
            counts["max_latency"] = line.split()[3]
        elif "requests in" in line:
            counts["requests"] = int(line.split()[0])
    counts.setdefault("errors", 0)
    return counts


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def database_port():
    """The drills' PostgreSQL port (local-postgres.sh picks it once and keeps it in the data dir)."""
    with open(os.path.join(ENV["TIL_PGDATA"], "til.port")) as f:
        return f.read().strip()


def database_connections():
    """Open TCP connections to the drills' PostgreSQL (only the drill's server holds any for long)."""
    listing = subprocess.run(["ss", "-Htn", "state", "established", "dst", f"127.0.0.1:{database_port()}"],
                             capture_output=True, text=True).stdout
    return len(listing.splitlines())


def descriptors_but_database(pid):
    """The server's open descriptors less its database connections, whose pool may grow under
    a drill's load and keep them: what must come back to its baseline after an attack."""
    return descriptors(pid) - database_connections()


def resident_kib(pid):
    """The process's resident memory (VmRSS) in KiB."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def early_responses(port):
    """`http_early_responses_total` from /metrics, by status: {408: n, ...} (empty if unreadable)."""
    try:
        text = request(port, "GET", "/metrics", timeout=7)[1].decode()
    except (OSError, http.client.HTTPException):
        return {}
    counts = {}
    for line in text.splitlines():
        if line.startswith("http_early_responses_total{"):
            status = line.split('status="')[1].split('"')[0]
            counts[int(status)] = int(float(line.rsplit(" ", 1)[1]))
    return counts


def raise_descriptor_limit():
    """For this process or, as a `preexec_fn`, a child: the soft open-file limit up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


def machine():
    load = os.getloadavg()
    return f"{os.cpu_count()} cores, load {load[0]:.2f}"
