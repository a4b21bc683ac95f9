#!/usr/bin/env python3
"""Writes the three variants of token.sql (main's client_credentials statement) compared in
latency-*.txt: token1 without the refresh CTE (2feb74c), token2 without the gate's arrays as
well (a85c691's shape), token3 with the arrays but no ORDER BY. Run here, then ab1c.sh F...
against a database holding the client 'benchclient' (scope 'catw': pgbench reads ':name' as
a variable, so the scope has no colon)."""
s = open('token.sql').read()
i, j = s.index('), refresh AS ('), s.index('\nSELECT client.*')
s1 = s[:i] + ')' + s[j:]
a, b = s1.index('), allowed AS ('), s1.index('), session AS (')
s2 = s1[:a] + '''), granted AS (
    SELECT c.scope AS names FROM client c
    WHERE true AND c.auth_method = 'client_secret_basic' AND c.secret_digest = repeat('a',64)
''' + s1[b:]
s3 = s1.replace(" WITH ORDINALITY AS u(name, n)", " AS u(name)").replace(" ORDER BY u.n) AS names", ") AS names")
for name, text in (('token1.sql', s1), ('token2.sql', s2), ('token3.sql', s3)):
    open(name, 'w').write(text)
