-- The wrk script of scripts/bench.sh: the request comes from the environment (BENCH_METHOD,
-- BENCH_BODY, JSON unless BENCH_CONTENT_TYPE says otherwise, BENCH_AUTH as an Authorization value), and when wrk is done it prints
-- one line of JSON with the numbers bench.sh keeps.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY") or ""
if body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = os.getenv("BENCH_CONTENT_TYPE") or "application/json"
end
local auth = os.getenv("BENCH_AUTH") or ""
if auth ~= "" then wrk.headers["Authorization"] = auth end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
