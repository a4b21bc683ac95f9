"""The client's redirect URI, as a native app has it (RFC 8252 §7.3): a listener on a loopback
port that records each request the browser is sent back with and answers a small page."""

import http.server
import queue
import threading
import urllib.parse


class RedirectCatcher:
    """`with RedirectCatcher() as catcher:` serves `catcher.redirect_uri` until the block ends;
    `catcher.next_redirect()` waits for the next request there and gives its query."""

    PATH = "/callback"

    def __init__(self):
        received = queue.Queue()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if urllib.parse.urlsplit(self.path).path != RedirectCatcher.PATH:
                    self.send_error(404)  # the browser's /favicon.ico
                    return
                received.put(self.path)
                body = b"<!doctype html><title>Proof client</title><p>Back at the client.</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._received = received
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.redirect_uri = f"http://127.0.0.1:{self._server.server_port}{self.PATH}"

    def __enter__(self):
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()

    def next_redirect(self, timeout=10):
        """The query parameters of the next request to the redirect URI (one value each)."""
        path = self._received.get(timeout=timeout)
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query))
