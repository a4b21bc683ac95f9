#!/usr/bin/env bash
# Fuzz the HTTP request parser with libFuzzer + AddressSanitizer for SECONDS (default 600).
#   scripts/fuzz-parser.sh [SECONDS]     (also: make fuzz FUZZ_SECONDS=...)
# Builds .build-fuzz/parser-fuzzer from the parser's own sources (pure Swift, no other module)
# and a seed corpus of valid and invalid requests; crashes are written to .build-fuzz/crashes/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
out=$root/.build-fuzz
mkdir -p "$out/corpus" "$out/crashes"
cd "$root"

swiftc -parse-as-library -sanitize=fuzzer,address -O -module-name HTTP1 -package-name TIL \
    Sources/HTTP1/Message/*.swift Sources/HTTP1/Parser/*.swift Sources/HTTP1/Server/HTTPServerLimits.swift \
    Fuzz/ParserFuzzTarget.swift -o "$out/parser-fuzzer"

seed() { printf "$2" > "$out/corpus/$1"; }
seed get 'GET /api/acronyms?term=a+b HTTP/1.1\r\nHost: x\r\n\r\n'
seed post 'POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"a":"b"}'
seed chunked 'PUT /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n0\r\nT: v\r\n\r\n'
seed pipelined 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'
seed smuggle 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
seed expect 'POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok'

cd "$out/crashes"
"$out/parser-fuzzer" -max_total_time="$seconds" -max_len=2048 -timeout=10 -print_final_stats=1 "$out/corpus"
