-- One INSERT of a row shaped like an acronym into a table like `acronyms` (issue 22): what
-- PostgreSQL alone does per single-row insert, to set TIL's bearer creates against.
--   psql "$URL" -c "CREATE TABLE acronyms (id uuid PRIMARY KEY, short text NOT NULL, long text NOT NULL,
--       user_id uuid NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE)"
--   pgbench -n -M prepared -f Benchmarks/pgbench-insert.sql -c 64 -j 2 -T 8 "$URL"
-- (scripts/bench-pool.sh runs it so, on a scratch database of the local PostgreSQL.)
INSERT INTO acronyms (id, short, long, user_id)
VALUES (gen_random_uuid(), 'WRK', 'created by pgbench', '00000000-0000-4000-8000-000000000001');
