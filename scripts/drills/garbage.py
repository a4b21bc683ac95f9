"""Drill: garbage. Two fuzzers at once, while the measuring client runs:

- the parser's libFuzzer target (`scripts/fuzz-parser.sh`, AddressSanitizer) for
  GARBAGE_FUZZ_SECONDS (default 600; the recorded run must use at least 600);
- a socket fuzzer against the running release server for SOCKET_FUZZ_SECONDS (default 300):
  eight threads send real requests (reads, creates and updates with a bearer token, a login,
  a refresh, chunked and `Expect: 100-continue` bodies) after one to three random mutations
  each (`mutations.py`), one case per fresh connection, and record every status they get back.

Passes when the libFuzzer run ends without a crash, the server never answered a 5xx other
than 503 (overload) or 505 (a request line with another HTTP version), it is still running
at the end with `/health` 200, and the measuring client saw no error. A case answered with
another 5xx is kept in .drills/garbage-5xx-*.bin to replay.
"""
import os
import random
import re
import socket
import subprocess
import threading
import time
import uuid

import mutations
import support

FUZZ_SECONDS = int(os.environ.get("GARBAGE_FUZZ_SECONDS", "600"))
SOCKET_SECONDS = int(os.environ.get("SOCKET_FUZZ_SECONDS", "300"))
THREADS = 8
# 503: overload (the connection limit). 505: the specified answer to a request line whose
# version is not HTTP/1.x, which the request-line mutation sends on purpose (`HTTP/2.0`).
ALLOWED_5XX = {503, 505}
STATUS = re.compile(rb"(?:^|\r\n)HTTP/1\.[01] (\d{3}) ")


def templates(server, acronym_id):
    """Real requests the server answers 2xx/4xx to, as bytes with exact Content-Length."""
    bearer = f"Authorization: Bearer {server.token}\r\n"

    def request(method, path, headers="", body=""):
        length = f"Content-Length: {len(body.encode())}\r\n" if body else ""
        return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: garbage-drill\r\n{headers}{length}\r\n{body}".encode()

    json_type = "Content-Type: application/json\r\n"
    return [
        request("GET", f"/api/acronyms/{acronym_id}"),
        request("GET", "/api/acronyms?limit=5"),
        request("GET", "/api/acronyms/search?term=dr"),
        request("GET", f"/api/acronyms/{acronym_id}/categories"),
        request("GET", "/api/users"),
        request("HEAD", "/health"),
        request("POST", "/api/acronyms", bearer + json_type, '{"short":"GB","long":"garbage drill"}'),
        request("PUT", f"/api/acronyms/{acronym_id}", bearer + json_type, '{"short":"GB","long":"garbage drill, updated"}'),
        request("POST", "/api/categories", bearer + json_type, '{"name":"garbage"}'),
        request("DELETE", f"/api/acronyms/{uuid.uuid4()}", bearer),
        request("POST", "/api/users/login", "Authorization: Basic YWRtaW46cGFzc3dvcmQ=\r\n"),
        request("POST", "/api/users/refresh", json_type, '{"refreshToken":"not-a-real-token"}'),
        request("POST", "/api/acronyms", bearer + json_type + "Expect: 100-continue\r\n", '{"short":"EX","long":"expect"}'),
        (f"POST /api/acronyms HTTP/1.1\r\nHost: 127.0.0.1\r\n{bearer}{json_type}Transfer-Encoding: chunked\r\n\r\n"
         '10\r\n{"short":"CH","lo\r\n17\r\nng":"chunked garbage"}\r\n0\r\n\r\n').encode(),
    ]


def exchange(port, payload):
    """One case on a fresh connection: the statuses answered, or a no-answer outcome name."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=3)
    except OSError:
        return ["connect failed"]
    received = b""
    try:
        sock.settimeout(0.3)
        sock.sendall(payload)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and len(received) < 4 << 20:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    except socket.timeout:
        pass
    except ConnectionResetError:
        if not received:
            return ["reset"]
    except OSError:
        if not received:
            return ["send failed"]
    finally:
        sock.close()
    statuses = [int(m.group(1)) for m in STATUS.finditer(received)]
    return statuses or (["no answer"] if not received else ["unparsed answer"])


class SocketFuzzer(threading.Thread):
    """Sends mutated cases until `until`; counts outcomes and keeps 5xx (not 503) cases."""

    def __init__(self, port, corpus, until, seed):
        super().__init__(daemon=True)
        self.port, self.corpus, self.until = port, corpus, until
        self.rng = random.Random(seed)
        self.cases, self.outcomes, self.server_errors = 0, {}, []

    def run(self):
        while time.monotonic() < self.until:
            payload = mutations.mutate(self.rng, self.corpus)
            self.cases += 1
            for outcome in exchange(self.port, payload):
                self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
                if isinstance(outcome, int) and outcome >= 500 and outcome not in ALLOWED_5XX:
                    self.server_errors.append(payload)


def parser_fuzz_stats(path):
    text = open(path, errors="replace").read()
    runs = re.findall(r"Done (\d+) runs in (\d+) second", text)
    coverage = re.findall(r"cov: (\d+)", text)
    crashed = "ERROR: " in text or "deadly signal" in text
    return (int(runs[-1][0]), int(runs[-1][1])) if runs else (0, 0), (coverage[-1] if coverage else "?"), crashed


def run():
    fuzz_out = os.path.join(support.OUT, "parser-fuzz.out")
    os.makedirs(support.OUT, exist_ok=True)
    with open(fuzz_out, "w") as log:
        parser_fuzz = subprocess.Popen([os.path.join(support.ROOT, "scripts", "fuzz-parser.sh"), str(FUZZ_SECONDS)],
                                       stdout=log, stderr=subprocess.STDOUT, cwd=support.ROOT)
    server = support.Server("garbage")
    acronym_id = server.create_acronym("GBG", "Garbage drill target")["id"]
    measurer = support.Measurer(server.port, f"/api/acronyms/{server.acronym_id}")
    corpus = templates(server, acronym_id)
    try:
        measurer.start()
        started = time.monotonic()
        fuzzers = [SocketFuzzer(server.port, corpus, started + SOCKET_SECONDS, seed) for seed in range(THREADS)]
        for fuzzer in fuzzers:
            fuzzer.start()
        for fuzzer in fuzzers:
            fuzzer.join(timeout=SOCKET_SECONDS + 30)
        alive = server.process.poll() is None
        health = support.get(server.port, "/health")[0]
        measured = measurer.summary()
        try:
            fuzz_status = parser_fuzz.wait(timeout=FUZZ_SECONDS + 600)  # its build, then its run
        except subprocess.TimeoutExpired:
            parser_fuzz.kill()
            fuzz_status = parser_fuzz.wait()
    finally:
        if parser_fuzz.poll() is None:
            parser_fuzz.kill()
            parser_fuzz.wait()
        measurer.stop()
        status, _ = server.stop()

    cases = sum(f.cases for f in fuzzers)
    outcomes = {}
    for fuzzer in fuzzers:
        for key, n in fuzzer.outcomes.items():
            outcomes[key] = outcomes.get(key, 0) + n
    server_errors = [payload for fuzzer in fuzzers for payload in fuzzer.server_errors]
    for index, payload in enumerate(server_errors[:20]):
        open(os.path.join(support.OUT, f"garbage-5xx-{index}.bin"), "wb").write(payload)
    (runs, fuzz_time), coverage, crashed = parser_fuzz_stats(fuzz_out)
    measured_errors = sum(n for code, n in measured["statuses"].items() if code != 200)
    checks = {"parser fuzz: no crash": fuzz_status == 0 and not crashed and runs > 0,
              "no 5xx but 503/505": not server_errors, "server alive and /health 200": alive and health == 200,
              "no measured errors": measured_errors == 0}
    histogram = ", ".join(f"{key}×{n}" for key, n in sorted(outcomes.items(), key=lambda item: (isinstance(item[0], str), str(item[0]))))
    figures = (f"parser libFuzzer {runs:,} runs in {fuzz_time} s, cov {coverage}, exit {fuzz_status}; "
               f"socket fuzzer {cases:,} cases in {SOCKET_SECONDS} s ({THREADS} threads): {histogram}; "
               f"/health at the end {health}; measurer {support.describe(measured)}; exit {status}")
    return support.outcome("Garbage (parser fuzz + socket fuzzer)", checks, figures)


if __name__ == "__main__":
    print(run())
