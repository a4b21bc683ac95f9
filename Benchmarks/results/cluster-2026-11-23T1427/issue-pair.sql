WITH session AS (
    INSERT INTO sessions (id, user_id, scopes, user_agent, expires_at, refresh_expires_at)
    VALUES (gen_random_uuid(), '340bca38-88ee-47ec-990e-8f2154484012', 'acronyms:write', 'bench-cluster', now() + interval '1 hour', now() + interval '30 days')
    RETURNING id, expires_at, refresh_expires_at
), access AS (
    INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
    SELECT gen_random_uuid(), md5(random()::text) || md5(random()::text), '340bca38-88ee-47ec-990e-8f2154484012', id, expires_at FROM session
    RETURNING id
)
INSERT INTO refresh_tokens (id, digest, session_id, parent_id, access_token_id, expires_at)
SELECT gen_random_uuid(), md5(random()::text) || md5(random()::text), session.id, NULL, access.id, refresh_expires_at
FROM session, access;
