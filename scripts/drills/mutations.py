"""The socket fuzzer's mutator (garbage drill): turns a real HTTP/1.1 request into a broken
one. Each mutation takes and returns bytes; `mutate` applies one to three of them to a
random template, or pipelines several (mutated) templates into one case.
"""
import random

TOKENS = [b"\r\n", b"\n", b"\r", b":", b" ", b"\t", b"\x00", b"\xff", b"%", b"%00", b"%zz", b"chunked", b"-1", b"0x10",
          b"99999999999999999999", b"\r\n\r\n", b"HTTP/1.1", b"Content-Length: 5\r\n", b"Transfer-Encoding: chunked\r\n",
          b"Connection: close\r\n", b"Expect: 100-continue\r\n", b"{", b"\"", b"\\u0000", b"\xc3\x28", b"../"]
LENGTHS = [b"99999999999999999999", b"18446744073709551616", b"-1", b"1e9", b"0x10", b" 7", b"7 7", b"+7", b"", b"1048577"]
CHUNK_SIZES = [b"ffffffffffffffff", b"-1", b"0x5", b"5;" + b"e" * 300, b"1 1", b"", b"z", b"100000000", b"5\n", b"0;a=b"]


def flip(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def insert(rng, data):
    piece = rng.choice(TOKENS) if rng.random() < 0.7 else bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    at = rng.randint(0, len(data))
    return data[:at] + piece + data[at:]


def delete(rng, data):
    at = rng.randrange(max(1, len(data)))
    return data[:at] + data[at + rng.randint(1, 32):]


def truncate(rng, data):
    return data[:rng.randrange(max(1, len(data)))]


def duplicate_header(rng, data):
    head, sep, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    if len(lines) < 2:
        return data
    at = rng.randrange(1, len(lines))
    lines[at:at] = [lines[at]] * rng.choice([1, 2, 50, 200])
    return b"\r\n".join(lines) + sep + body


def huge_length(rng, data):
    head, sep, body = data.partition(b"\r\n\r\n")
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"content-length")]
    lines.insert(1, b"Content-Length: " + rng.choice(LENGTHS))
    if rng.random() < 0.3:  # two disagreeing lengths
        lines.insert(2, b"Content-Length: " + rng.choice(LENGTHS))
    return b"\r\n".join(lines) + sep + body


def chunked(rng, data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"content-length", b"transfer-encoding"))]
    lines.append(rng.choice([b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip, chunked", b"Transfer-Encoding: chunked, chunked",
                             b"Transfer-Encoding:  chunked", b"Transfer-Encoding: chunked\r\nContent-Length: 3"]))
    chunks = [b"%x\r\n%s\r\n" % (len(body), body), rng.choice(CHUNK_SIZES) + b"\r\nabcde\r\n", b"0\r\n"]
    trailer = rng.choice([b"\r\n", b"X-Trailer: 1\r\n\r\n", b"", b"Host: x\r\n\r\n"])
    rng.shuffle(chunks)
    return b"\r\n".join(lines) + b"\r\n\r\n" + b"".join(chunks) + trailer


def long_field(rng, data):
    size = rng.choice([1000, 9000, 17000, 70000])
    filler = bytes([rng.choice(b"abcdefghij/%?=&")]) * size
    if rng.random() < 0.5:  # in the target
        return data.replace(b" HTTP/1.1", b"/" + filler + b" HTTP/1.1", 1)
    return data.replace(b"\r\n", b"\r\nX-Long: " + filler + b"\r\n", 1)


def request_line(rng, data):
    line, sep, rest = data.partition(b"\r\n")
    parts = line.split(b" ")
    choice = rng.randrange(4)
    if choice == 0:
        parts[0] = rng.choice([b"BREW", b"get", b"G\x00T", b"", b"CONNECT", b"TRACE", b"PRI", b"M" * 100])
    elif choice == 1:
        parts[-1] = rng.choice([b"HTTP/1.7", b"HTTP/2.0", b"HTTP/0.9", b"HTTP/1.1 x", b"HTTP/1.", b"http/1.1", b""])
    elif choice == 2:
        parts.insert(1, rng.choice([b"", b"*", b"http://evil", b"/a b"]))
    else:
        parts[1:2] = [rng.choice([b"*", b"//", b"/%", b"/..%2f..%2f", b"http://127.0.0.1/health", b"/api/acronyms/\xff"])]
    return b" ".join(parts) + sep + rest


def line_endings(rng, data):
    return data.replace(b"\r\n", rng.choice([b"\n", b"\r", b"\r\r\n", b"\n\r"]))


def garbage(rng, data):
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 512)))


MUTATIONS = [flip, insert, delete, truncate, duplicate_header, huge_length, chunked, long_field, request_line, line_endings, garbage]


def mutate(rng, corpus):
    """One fuzz case: a mutated template, or (one in eight) a pipeline of 2-20 templates with
    some of them mutated."""
    if rng.random() < 0.125:
        parts = [rng.choice(corpus) for _ in range(rng.randint(2, 20))]
        return b"".join(rng.choice(MUTATIONS)(rng, part) if rng.random() < 0.3 else part for part in parts)
    data = rng.choice(corpus)
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(MUTATIONS)(rng, data)
    return data
