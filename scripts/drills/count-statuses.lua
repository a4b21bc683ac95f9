-- wrk script for the drills: counts responses per HTTP status across threads and prints
-- one "STATUS <code> <count>" line each (wrk itself only reports "non-2xx").
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    counts = {}
end

function response(status, headers, body)
    counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
    local total = {}
    for _, thread in ipairs(threads) do
        for code, number in pairs(thread:get("counts")) do
            total[code] = (total[code] or 0) + number
        end
    end
    for code, number in pairs(total) do
        io.write(string.format("STATUS %d %d\n", code, number))
    end
end
