/// Python clients for `TLSTests`: Python's `ssl` module is a TLS stack other than the
/// server's own OpenSSL calls, and lets a test hold one connection for several requests.
/// Each prints one JSON object.
enum TLSClientScripts {
    /// Reads one response framed by Content-Length; (status, body).
    private static let readResponse = """
        import json, socket, ssl, sys, time
        port, cafile = int(sys.argv[1]), sys.argv[2]
        context = ssl.create_default_context(cafile=cafile)
        context.set_alpn_protocols(["h2", "http/1.1"])
        pending = b""
        def response(tls):
            global pending
            while b"\\r\\n\\r\\n" not in pending:
                chunk = tls.recv(65536)
                if not chunk: raise EOFError("closed before a response head")
                pending += chunk
            head, _, rest = pending.partition(b"\\r\\n\\r\\n")
            lines = head.split(b"\\r\\n")
            length = next(int(l.split(b":")[1]) for l in lines if l.lower().startswith(b"content-length:"))
            while len(rest) < length:
                chunk = tls.recv(65536)
                if not chunk: raise EOFError("closed inside a body")
                rest += chunk
            pending = rest[length:]
            return int(lines[0].split(b" ")[1]), rest[:length]
        def connect():
            raw = socket.create_connection(("127.0.0.1", port), timeout=10)
            return context.wrap_socket(raw, server_hostname="127.0.0.1")
        def summary(path, status, body):
            return [path, status, len(body), body == b"x" * (1 << 20) if path == "/big" else body.decode()]

        """

    /// One keep-alive connection: the negotiated version and protocol, then `/one`, the 1 MiB
    /// `/big`, `/p1` + `/p2` pipelined in one write, and a 900 KB upload echoed back.
    static let keepAlive = readResponse + """
        tls = connect()
        result = {"version": tls.version(), "alpn": tls.selected_alpn_protocol(), "answers": []}
        for path in ["/one", "/big"]:
            tls.sendall(f"GET {path} HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n".encode())
            result["answers"].append(summary(path, *response(tls)))
        tls.sendall(b"GET /p1 HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\nGET /p2 HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
        for path in ["/p1", "/p2"]:
            result["answers"].append(summary(path, *response(tls)))
        upload = b"y" * 900_000
        tls.sendall(b"POST /upload HTTP/1.1\\r\\nHost: localhost\\r\\nContent-Length: 900000\\r\\n\\r\\n" + upload)
        status, body = response(tls)
        result["answers"].append(["/upload", status, len(body), body.endswith(b":" + upload) and body[:25].decode()])
        tls.close()
        print(json.dumps(result))
        """

    /// A TLS client asks `/before`; then another socket sends an HTTP request where a
    /// ClientHello belongs and waits for the server to close it; then the first client asks
    /// `/after` on its same connection.
    static let garbageBesideAClient = readResponse + """
        tls = connect()
        tls.sendall(b"GET /before HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
        answers = [summary("/before", *response(tls))]
        garbage = socket.create_connection(("127.0.0.1", port), timeout=10)
        garbage.sendall(b"GET / HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n" + bytes(range(256)) * 4)
        started, reply = time.monotonic(), b""
        try:
            while chunk := garbage.recv(65536): reply += chunk
            ending = "closed"
        except ConnectionResetError:
            ending = "reset"
        except socket.timeout:
            ending = "still open"
        tls.sendall(b"GET /after HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
        answers.append(summary("/after", *response(tls)))
        print(json.dumps({"garbage": ending, "seconds": time.monotonic() - started,
                          "plaintext_reply": reply.startswith(b"HTTP/"), "answers": answers}))
        """

    /// A malformed request over TLS, then a read to the end: the 400 must arrive whole,
    /// followed by the server's close_notify (a clean end, not a reset or a truncation).
    static let badRequest = readResponse + """
        tls = connect()
        tls.sendall(b"NOT HTTP AT ALL\\r\\n\\r\\n")
        status, body = response(tls)
        ending = "close_notify" if tls.recv(100) == b"" else "more bytes"
        print(json.dumps({"status": status, "body": body.decode(), "ending": ending}))
        """
}
