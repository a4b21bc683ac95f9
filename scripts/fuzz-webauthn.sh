#!/usr/bin/env bash
# Fuzz WebAuthn's decoders (strict CBOR, attestation objects, authenticator data, COSE keys,
# clientDataJSON) with libFuzzer + AddressSanitizer for SECONDS (default 600).
#   scripts/fuzz-webauthn.sh [SECONDS]     (also: make fuzz, which runs this and the parser's)
# Builds .build-fuzz/webauthn-fuzzer from Sources/WebAuthn and the few Crypt files it uses
# (OpenSSL keys, SHA-256, constant-time compare, base64url) compiled into one module, and a seed
# corpus written by the software authenticator's shapes; crashes go to .build-fuzz/webauthn-crashes/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
out=$root/.build-fuzz
corpus=$out/webauthn-corpus
mkdir -p "$corpus" "$out/webauthn-crashes"
cd "$root"

# Crypt's `import` lines name modules that are one module here: drop them in copies.
work=$out/webauthn-sources
rm -rf "$work" && mkdir -p "$work"
for file in Sources/WebAuthn/*/*.swift Sources/WebAuthn/*.swift Sources/Crypt/PublicKeys/*.swift \
    Sources/Crypt/SHA256.swift Sources/Crypt/ConstantTime.swift Sources/Crypt/Base64URL.swift; do
    sed -e '/^import Crypt$/d' "$file" > "$work/$(basename "$file")"
done
swiftc -parse-as-library -sanitize=fuzzer,address -O -module-name WebAuthn -I Sources/COpenSSL \
    "$work"/*.swift Fuzz/WebAuthnFuzzTarget.swift -lssl -lcrypto -o "$out/webauthn-fuzzer"

seed() { printf "$2" > "$corpus/$1"; }
seed cose-es256 '\xa5\x01\x02\x03\x26\x20\x01\x21\x58\x20AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\x22\x58\x20BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'
seed cose-ed25519 '\xa4\x01\x01\x03\x27\x20\x06\x21\x58\x20AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
seed attestation-none '\xa3\x63fmt\x64none\x67attStmt\xa0\x68authData\x58\x25AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\x45\x00\x00\x00\x00'
seed packed '\xa3\x63fmt\x66packed\x67attStmt\xa2\x63alg\x26\x63sig\x41\x30\x68authData\x40'
seed x5c '\xa1\x63x5c\x82\x41\x30\x42\x30\x00'
seed client-data '{"type":"webauthn.get","challenge":"AAEC","origin":"https://til.example","crossOrigin":false}'
seed nested '\x81\x81\x81\xa1\x61a\x9f\xff'
# Real responses when the debug build has the crosscheck executable (make test builds it): the
# attestation objects (with COSE keys of all three kinds), authenticator data and client data.
if [ -x .build/debug/webauthn-crosscheck ]; then
    .build/debug/webauthn-crosscheck > "$out/webauthn-responses.json"
    python3 - "$out/webauthn-responses.json" "$corpus" <<'PY'
import base64, json, sys
for case in json.load(open(sys.argv[1]))["cases"]:
    for kind in ("registration", "authentication"):
        for member, value in case[kind]["response"].items():
            if isinstance(value, str) and member != "userHandle":
                name = case["name"].replace(" ", "-") + "-" + kind + "-" + member
                with open(sys.argv[2] + "/" + name, "wb") as seed_file:
                    seed_file.write(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
PY
fi

cd "$out/webauthn-crashes"
"$out/webauthn-fuzzer" -max_total_time="$seconds" -max_len=2048 -timeout=10 -print_final_stats=1 "$corpus"
