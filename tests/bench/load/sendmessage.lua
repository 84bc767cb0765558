-- wrk script: SendMessage over the JSON protocol, the same request inflight_load's send mode makes
-- (a 100-byte body, 'a' to 'z' over and over). The queue's URL comes from QUEUE_URL (the queue
-- must exist; floor_compare.sh creates it). Only wrk.method/body/headers are set, so wrk keeps its
-- fast path (one prepared request, no Lua per request).
--
--   QUEUE_URL=http://127.0.0.1:PORT/000000000000/q wrk -t1 -c32 -d6s -s sendmessage.lua URL
local queue = os.getenv("QUEUE_URL")
if not queue or queue == "" then
   error("sendmessage.lua: set QUEUE_URL to the queue's URL")
end

local chars = {}
for i = 0, 99 do
   chars[#chars + 1] = string.char(string.byte("a") + i % 26)
end

wrk.method = "POST"
wrk.path = "/"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "AmazonSQS.SendMessage"
wrk.body = '{"QueueUrl":"' .. queue .. '","MessageBody":"' .. table.concat(chars) .. '"}'
