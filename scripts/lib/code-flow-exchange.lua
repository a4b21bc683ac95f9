-- wrk script of scripts/bench-code-flow.sh: each request redeems a code of its own at
-- /oauth/token (authorization_code + PKCE, client_secret_basic). Thread i of n takes every n-th
-- line of CODE_FLOW_DIR/codes; a thread out of codes stops, so no code is sent twice. Its
-- `done` is bench-wrk.lua's: the same JSON line.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "../bench-wrk.lua")
local dir = os.getenv("CODE_FLOW_DIR")
local counter = 0

local function read(name)
  local file = assert(io.open(dir .. "/" .. name))
  local text = file:read("*a")
  file:close()
  return text
end

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

function init(args)
  local all = {}
  for line in io.lines(dir .. "/codes") do table.insert(all, line) end
  local total = tonumber(os.getenv("CODE_FLOW_THREADS") or "2")
  codes, next_code = {}, 1
  for i = index + 1, #all, total do table.insert(codes, all[i]) end
  verifier = read("verifier")
  wrk.method = "POST"
  wrk.headers["Authorization"] = "Basic " .. read("client")
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end

function request()
  local code = codes[next_code]
  if code == nil then
    wrk.thread:stop()
    code = "spent"
  end
  next_code = next_code + 1
  return wrk.format(nil, "/oauth/token", nil, "grant_type=authorization_code&code=" .. code ..
    "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&code_verifier=" .. verifier)
end
