/**
 * The store's two read-modify-write operations as Lua, so Redis runs each atomically: N
 * instances taking tokens from one bucket, or adding credits to one counter, never both read
 * the same old value. Both use Redis's clock (`TIME`), not the instances', whose clocks may
 * differ. The token bucket is src/api's `TokenBucket` (same refill and Retry-After), written
 * where it has to run.
 */
import { defineScript, type CommandParser } from "@redis/client";

/** KEYS[1] bucket; ARGV burst, perSecond. Replies `{ok (0|1), retryAfter}`. */
const TAKE_TOKEN = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
if ok == 1 then return {1, 0} end
return {0, math.max(1, math.ceil((1 - tokens) / rate))}
`;

/** KEYS[1] counter; ARGV amount, ceiling (-1: none), ttlMs. Replies `{ok (0|1), value}`. */
const ADD_WITHIN = `
local amount = tonumber(ARGV[1])
local ceiling = tonumber(ARGV[2])
local current = redis.call('GET', KEYS[1])
if current == false and amount < 0 then return {1, 0} end
local value = tonumber(current or '0')
if amount > 0 and ceiling >= 0 and value + amount > ceiling then return {0, value} end
value = math.max(0, value + amount)
redis.call('SET', KEYS[1], tostring(value), 'PX', ARGV[3])
return {1, value}
`;

const pair = (reply: unknown) => {
  const [ok, value] = reply as [number, number];
  return { ok: ok === 1, value: Number(value) };
};

export const REDIS_SCRIPTS = {
  takeToken: defineScript({
    SCRIPT: TAKE_TOKEN,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser: CommandParser, key: string, burst: number, perSecond: number) {
      parser.pushKey(key);
      parser.push(String(burst), String(perSecond));
    },
    transformReply: pair,
  }),
  addWithin: defineScript({
    SCRIPT: ADD_WITHIN,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser: CommandParser, key: string, amount: number, ceiling: number, ttlMs: number) {
      parser.pushKey(key);
      parser.push(String(amount), String(ceiling), String(Math.max(1, Math.round(ttlMs))));
    },
    transformReply: pair,
  }),
};
