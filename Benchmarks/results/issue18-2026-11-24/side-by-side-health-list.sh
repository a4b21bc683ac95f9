#!/usr/bin/env bash
# Side by side on /health and the list of 100 acronyms: NAME=BIN pairs, alternating wrk runs.
set -uo pipefail
pg=/work/main/scripts/local-postgres.sh
port=8291; names=(); ports=(); pids=()
for pair in "$@"; do
  name=${pair%%=*}; bin=${pair#*=}
  url=$($pg fresh-db "hl_$name" 2>/dev/null | tail -1)
  DATABASE_URL="$url" ENVIRONMENT=development LOG_LEVEL=notice setsid "$bin" serve --port $port >/tmp/hl-$name.log 2>&1 &
  pids+=($!); names+=($name); ports+=($port); port=$((port+1))
done
sleep 2
for i in "${!names[@]}"; do
  p=${ports[$i]}
  tok=$(curl -s -X POST -u admin:password localhost:$p/api/users/login | python3 -c "import json,sys; print(json.load(sys.stdin)['value'])")
  for n in $(seq 100); do curl -s -o /dev/null -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' -d "{\"short\":\"A$n\",\"long\":\"Acronym $n\"}" localhost:$p/api/acronyms; done
done
for r in $(seq ${ROUNDS:-4}); do
  for i in "${!names[@]}"; do
    for path in health api/acronyms; do
      c0=$(awk '{print $14+$15}' /proc/${pids[$i]}/stat)
      out=$(wrk -t2 -c64 -d${SECS:-4}s --timeout 10s http://127.0.0.1:${ports[$i]}/$path)
      c1=$(awk '{print $14+$15}' /proc/${pids[$i]}/stat); n=$(echo "$out" | awk '/requests in/ {print $1}')
      printf "%s %-6s %-13s %s cpu_us_per_req %.2f\n" $r ${names[$i]} $path "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" $(awk -v a=$c0 -v b=$c1 -v n=$n 'BEGIN{print (b-a)*10000/n}')
    done
  done
done
for pid in "${pids[@]}"; do kill -TERM $pid; done; sleep 1
for n in "${names[@]}"; do $pg drop-db "hl_$n" >/dev/null 2>&1; done
