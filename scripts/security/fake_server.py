"""A server that is not the TIL server a client logged in to, for the security cases: it records
every request (method, path, headers, body) as one JSON line in --log, and answers as told.

  python3 fake_server.py --log FILE                      404 to everything
  python3 fake_server.py --log FILE --answer-login       a login succeeds (a token of its own); the rest 204
  python3 fake_server.py --log FILE --redirect-to URL    the login 302, the rest 307, to URL + the path

Listens on 127.0.0.1, on a port the kernel picks, and prints `listening on http://127.0.0.1:PORT`.
Not a case itself (not executable): the cases start it."""
import argparse
import json
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def token_answer():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    stamp = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "id": str(uuid.uuid4()).upper(), "value": "fake-access", "user": {"id": str(uuid.uuid4()).upper()},
        "expiresAt": stamp(now + timedelta(hours=1)), "refreshToken": "fake-refresh",
        "refreshExpiresAt": stamp(now + timedelta(days=1)),
        "scopes": ["acronyms:write", "categories:write", "users:write", "account"], "tokenType": "Bearer",
    }


def handler(options):
    class Handler(BaseHTTPRequestHandler):
        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            entry = {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body}
            with open(options.log, "a") as log:
                log.write(json.dumps(entry) + "\n")
            is_login = self.path.split("?")[0] == "/api/users/login"
            if options.redirect_to:
                self.send(302 if is_login else 307, {"Location": options.redirect_to.rstrip("/") + self.path})
            elif options.answer_login and is_login:
                self.send(200, {"Content-Type": "application/json"}, json.dumps(token_answer()).encode())
            elif options.answer_login:
                self.send(204, {})
            else:
                self.send(404, {"Content-Type": "text/plain"}, b"nothing here")

        def send(self, status, headers, body=b""):
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = answer

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--answer-login", action="store_true")
    parser.add_argument("--redirect-to")
    options = parser.parse_args()
    open(options.log, "w").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(options))
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
