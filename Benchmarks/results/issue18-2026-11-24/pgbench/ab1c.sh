url=postgres://til:til@127.0.0.1:46951/speedscratch?sslmode=disable
# DATABASE_URL of the scratch database used on 2026-11-24 (the local cluster); adjust.
for i in 1 2 3 4; do for f in "$@"; do
  psql -X -q "$url" -c "TRUNCATE sessions CASCADE" >/dev/null 2>&1
  echo "$f $(pgbench -n -M prepared -f $f -c 1 -T 4 "$url" 2>&1 | grep -E '^(tps|latency average)' | awk '{print $4}' | paste -sd' ')"
done; done
