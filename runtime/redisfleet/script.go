package redisfleet

// syncScript runs one synchronisation of one replica atomically on the
// server, timed by the server's clock (TIME), so that replicas' clocks
// never matter. It reads and repairs what it finds: a field that is not a
// number in range is reset, never trusted.
//
// KEYS: 1 the breaker hash (gen, state, until, prober, lease), 2 the
// counts hash (a ring of buckets: i<slot> the bucket's index, s<slot> and
// f<slot> its successes and failures), 3 the budget hash (bal in
// milli-tokens, tat the floor's theoretical arrival time in ms).
//
// ARGV: 1 replica, 2 generation, 3 successes, 4 failures, 5 want probe
// (0/1), 6 verdict (0 none, 1 close, 2 reopen), 7 bucket ms, 8 buckets in
// the window, 9 minimum calls, 10 failure rate (percent), 11 open ms,
// 12 probe lease ms, 13 budget off (0/1), 14 calls, 15 tokens wanted,
// 16 of which from the floor, 17 deposit per call (milli-tokens), 18 max
// balance (milli-tokens), 19 floor per second, 20 channel, 21 key TTL ms,
// 22 expiry: the server time (Unix ms) after which the request is
// dropped (0: none).
//
// A key of another type than the script's (a string, a list, a set...)
// is deleted and rebuilt: for the breaker, as a new closed generation.
//
// Reply: {generation, state (0 closed, 1 half-open, 2 open), open ms
// left, prober (0/1), window requests, window failures, tokens granted,
// server time (Unix ms)}; {-1, server time} when the request arrived
// after its expiry, and changed nothing.
const syncScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local me = ARGV[1]
local rgen = tonumber(ARGV[2])
local succ, fail = tonumber(ARGV[3]), tonumber(ARGV[4])
local wantProbe, verdict = tonumber(ARGV[5]), tonumber(ARGV[6])
local bucketMs, n = tonumber(ARGV[7]), tonumber(ARGV[8])
local minCalls, rate = tonumber(ARGV[9]), tonumber(ARGV[10])
local openMs, leaseMs = tonumber(ARGV[11]), tonumber(ARGV[12])
local ttl = tonumber(ARGV[21])
local expiry = tonumber(ARGV[22]) or 0
if expiry > 0 and now > expiry then
  -- Abandoned by its replica: what it carries was counted long ago.
  return {-1, now}
end

-- A key of the wrong type (written by something else) is rebuilt.
local wrongType = false
for i = 1, 3 do
  local ty = redis.call('TYPE', KEYS[i])['ok']
  if ty ~= 'hash' and ty ~= 'none' then
    redis.call('DEL', KEYS[i])
    if i == 1 then wrongType = true end
  end
end

local function int(v, lo, hi)
  local x = tonumber(v)
  if x == nil or x ~= x or x < lo or x > hi or x ~= math.floor(x) then return nil end
  return x
end

local st = redis.call('HMGET', KEYS[1], 'gen', 'state', 'until', 'prober', 'lease')
local gen = int(st[1], 0, 9007199254740991)
local state = int(st[2], 0, 2)
local untl = int(st[3], 0, now + openMs)
local prober = st[4]
if prober == false then prober = '' end
local lease = int(st[5], 0, now + leaseMs) or 0
local changed = false

local function to(s)
  state, gen, prober, lease, changed = s, gen + 1, '', 0, true
  redis.call('DEL', KEYS[2])
  if s == 2 then untl = now + openMs else untl = 0 end
end

if gen == nil or state == nil or (state == 2 and untl == nil) then
  -- Nothing yet, or something this script did not write: start closed.
  local fresh = st[1] == false and st[2] == false and not wrongType
  gen = int(st[1], 0, 9007199254740991) or 0
  state = 0
  if fresh then
    untl = 0
  else
    to(0)
  end
end
if untl == nil then untl = 0 end
if state == 2 and now >= untl then
  to(1)
end
if verdict ~= 0 and rgen == gen and state == 1 and prober == me then
  if verdict == 1 then to(0) else to(2) end
end

local reqs, fails = 0, 0
if state == 0 then
  local idx = math.floor(now / bucketMs)
  local slot = idx % n
  if rgen == gen and (succ > 0 or fail > 0) then
    local cur = tonumber(redis.call('HGET', KEYS[2], 'i' .. slot))
    if cur ~= idx then
      redis.call('HSET', KEYS[2], 'i' .. slot, idx, 's' .. slot, succ, 'f' .. slot, fail)
    else
      redis.call('HINCRBY', KEYS[2], 's' .. slot, succ)
      redis.call('HINCRBY', KEYS[2], 'f' .. slot, fail)
    end
  end
  local h = {}
  local all = redis.call('HGETALL', KEYS[2])
  for i = 1, #all, 2 do h[all[i]] = all[i + 1] end
  for k = 0, n - 1 do
    local i = int(h['i' .. k], idx - n + 1, idx)
    local s, f = int(h['s' .. k], 0, 1e15), int(h['f' .. k], 0, 1e15)
    if i and s and f then
      reqs, fails = reqs + s + f, fails + f
    end
  end
  if reqs >= minCalls and reqs > 0 and fails * 100 >= rate * reqs then
    to(2)
    reqs, fails = 0, 0
  end
end
if state == 1 and wantProbe == 1 and (prober == '' or lease <= now) then
  prober, lease = me, now + leaseMs
end
redis.call('HSET', KEYS[1], 'gen', gen, 'state', state, 'until', untl, 'prober', prober, 'lease', lease)
redis.call('PEXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end

local granted = 0
if tonumber(ARGV[13]) == 0 then
  local calls, want, wantFloor = tonumber(ARGV[14]), tonumber(ARGV[15]), tonumber(ARGV[16])
  local deposit, top, perSec = tonumber(ARGV[17]), tonumber(ARGV[18]), tonumber(ARGV[19])
  local b = redis.call('HMGET', KEYS[3], 'bal', 'tat')
  local bal = tonumber(b[1])
  if bal == nil or bal ~= bal or bal < 0 or bal > top then bal = 0 end
  bal = math.min(top, bal + calls * deposit)
  local take = math.min(want, math.floor(bal / 1000))
  bal = bal - take * 1000
  granted = take
  local tat = tonumber(b[2])
  local left = math.min(wantFloor, want - take)
  if perSec > 0 then
    local T = 1000 / perSec
    local burst = math.max(1, math.floor(perSec))
    if tat == nil or tat ~= tat or tat < now then tat = now end
    if tat > now + burst * T then tat = now + burst * T end
    if left > 0 then
      local k = math.min(left, math.max(0, math.floor((burst * T - (tat - now)) / T)))
      tat = tat + k * T
      granted = granted + k
    end
  else
    tat = now
  end
  redis.call('HSET', KEYS[3], 'bal', string.format('%.0f', bal), 'tat', string.format('%.3f', tat))
  redis.call('PEXPIRE', KEYS[3], ttl)
end

if changed then redis.call('PUBLISH', ARGV[20], gen) end
local openLeft = 0
if state == 2 then openLeft = untl - now end
local isProber = 0
if state == 1 and prober == me then isProber = 1 end
return {gen, state, openLeft, isProber, reqs, fails, granted, now}
`
