INSERT INTO login_failures (username, address) VALUES ('bench-cluster-' || (random() * 1000)::int, '198.18.0.1');
