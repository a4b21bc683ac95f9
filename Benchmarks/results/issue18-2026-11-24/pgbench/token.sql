WITH v AS MATERIALIZED (SELECT gen_random_uuid() AS sid, gen_random_uuid() AS aid, md5(random()::text) || md5(random()::text) AS dig), client AS (
    SELECT id, name, auth_method, redirect_uris, post_logout_redirect_uris, grant_types, scope, trusted, secret_digest FROM oauth_clients WHERE id = 'benchclient'
), allowed AS (
    SELECT ARRAY(SELECT u.name FROM unnest(string_to_array(c.scope, ' ')) WITH ORDINALITY AS u(name, n)
                 WHERE u.name = ANY (string_to_array('catw', ' ')) ORDER BY u.n) AS names
    FROM client c
    WHERE true AND c.auth_method = 'client_secret_basic' AND c.auth_method <> 'none'
      AND c.secret_digest = repeat('a',64)
      AND 'client_credentials' = ANY (string_to_array(c.grant_types, ' '))
), granted AS (
    SELECT coalesce(NULL::text, array_to_string(a.names, ' ')) AS names FROM allowed a
    WHERE cardinality(a.names) > 0 AND (NULL::text IS NULL OR string_to_array(NULL::text, ' ') <@ a.names)
), session AS (
    INSERT INTO sessions (id, user_id, scopes, expires_at, refresh_expires_at, kind, client_id, audience)
    SELECT (SELECT sid FROM v), NULL::uuid, granted.names,
           least(date_trunc('second', now() + 3600 * interval '1 second'), date_trunc('second', now() + 86400 * interval '1 second')),
           least(date_trunc('second', now() + 3600 * interval '1 second'), date_trunc('second', now() + 86400 * interval '1 second')),
           'oauth', 'benchclient', NULL::text
    FROM granted
    RETURNING expires_at, refresh_expires_at, scopes
), access AS (
    INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
    SELECT (SELECT aid FROM v), (SELECT dig FROM v), NULL::uuid, (SELECT sid FROM v), expires_at FROM session
), refresh AS (
    INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
    SELECT gen_random_uuid(), 'x', (SELECT sid FROM v), NULL, (SELECT aid FROM v), refresh_expires_at
    FROM session WHERE false
)
SELECT client.*, extract(epoch FROM session.expires_at - now())::float8 AS expires_in, session.scopes FROM client LEFT JOIN session ON TRUE;
