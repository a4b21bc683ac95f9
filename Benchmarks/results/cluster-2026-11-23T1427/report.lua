local method, body, auth = os.getenv("WRK_METHOD"), os.getenv("WRK_BODY"), os.getenv("WRK_AUTH")
if method and method ~= "" then wrk.method = method end
if body and body ~= "" then wrk.body = body; wrk.headers["Content-Type"] = "application/json" end
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end
function done(s, latency, requests)
  local e = s.errors
  io.write(string.format("WRK %d %d %.3f %.3f %d %d\n", s.duration, s.requests,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
