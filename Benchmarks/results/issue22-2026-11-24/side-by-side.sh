#!/usr/bin/env bash
# Side by side: NAME=BIN pairs, each on its own port (8191+) and fresh DB; alternate wrk on one-row GETs.
# ROUNDS (default 4), SECS (default 5)
set -uo pipefail
pg=/work/main/scripts/local-postgres.sh
port=8191; names=(); ports=(); pids=(); users=(); acrs=()
for pair in "$@"; do
  name=${pair%%=*}; bin=${pair#*=}; params=
  case $bin in *\?*) params=${bin#*\?}; bin=${bin%%\?*};; esac
  url=$($pg fresh-db "abc_$name" 2>/dev/null | tail -1)${params:+&$params}
  DATABASE_URL="$url" ENVIRONMENT=development LOG_LEVEL=notice setsid "$bin" serve --port $port >/tmp/abc-$name.log 2>&1 &
  pids+=($!); names+=($name); ports+=($port); port=$((port+1))
done
sleep 2
for i in "${!names[@]}"; do
  p=${ports[$i]}
  read -r tok uid < <(curl -s -X POST -u admin:password localhost:$p/api/users/login | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['value'], d['user']['id'])")
  acr=$(curl -s -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' -d '{"short":"X","long":"Y"}' localhost:$p/api/acronyms | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
  users+=($uid); acrs+=($acr)
done
for r in $(seq ${ROUNDS:-4}); do
  for i in "${!names[@]}"; do
    for path in users/${users[$i]} acronyms/${acrs[$i]}; do
      printf "%s %-8s %-8s " $r ${names[$i]} ${path%%/*}
      c0=$(awk '{print $14+$15}' /proc/${pids[$i]}/stat)
      perf stat -x, -e instructions:u,instructions:k -p ${pids[$i]} -o /tmp/abc-perf.txt -- sleep ${SECS:-5} &
      perfpid=$!
      out=$(wrk -t2 -c64 -d${SECS:-5}s --latency --timeout 10s http://127.0.0.1:${ports[$i]}/api/$path)
      wait $perfpid
      c1=$(awk '{print $14+$15}' /proc/${pids[$i]}/stat)
      n=$(echo "$out" | awk '/requests in/ {print $1}')
      echo "$out" | awk '/Requests\/sec/ {printf "%s ", $2} /Latency/ && !/Distribution/ {printf "max %s ", $4}'
      awk -v a=$c0 -v b=$c1 -v n=$n 'BEGIN { printf "cpu_us_per_req %.2f ", (b - a) * 10000 / n }'
      awk -F, -v n=$n '/instructions:u/ {u=$1} /instructions:k/ {k=$1} END { printf "kinsn_user_per_req %.1f kinsn_kernel_per_req %.1f\n", u/n/1000, k/n/1000 }' /tmp/abc-perf.txt
    done
  done
done
for pid in "${pids[@]}"; do kill -TERM $pid; done
sleep 1
for n in "${names[@]}"; do $pg drop-db "abc_$n" >/dev/null 2>&1; done
