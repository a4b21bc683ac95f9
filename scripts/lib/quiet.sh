# Sourced by scripts/bench.sh and scripts/bench-storm.sh. The machine may be shared: before a
# measurement, wait (at most QUIET_MAX_WAIT s, default 120) until the CPU was at least
# QUIET_IDLE % idle (default 90) over one second. Prints the idle percentage it saw last.

cpu_idle_pct() {  # idle + iowait share of all CPU time over one second, from /proc/stat
    local a b
    a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat)
    sleep 1
    b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]; printf "%.1f\n", (t > 0 ? 100 * (y[1] - x[1]) / t : 100) }'
}

wait_quiet() {
    local deadline=$((SECONDS + ${QUIET_MAX_WAIT:-120})) idle
    idle=$(cpu_idle_pct)
    while awk -v i="$idle" -v m="${QUIET_IDLE:-90}" 'BEGIN { exit !(i < m) }' && [ "$SECONDS" -lt "$deadline" ]; do
        idle=$(cpu_idle_pct)
    done
    echo "$idle"
}
