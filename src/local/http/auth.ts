import type { MiddlewareHandler } from "hono";
import { MESSAGES } from "../../api/rules/messages.ts";
import type { AppEnv, ServiceContext } from "./context.ts";
import { HttpError } from "./http-error.ts";
import { readBody } from "./body-reader.ts";

/**
 * Reads the body once (POST, and DELETE: Laravel's HTTP client sends the key in a JSON body
 * there), then finds the account from the key in `x-api-key`, the `api_key` query parameter
 * or an `api_key` body field, as real clients send it, on every route. The key is taken out
 * of the body so it never reaches a record.
 */
export function authenticate(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.method === "POST" || c.req.method === "DELETE" ? await readBody(c.req.raw) : {};
    const fromBody = typeof body.api_key === "string" ? body.api_key : undefined;
    delete body.api_key;
    const key = c.req.header("x-api-key") ?? c.req.query("api_key") ?? fromBody;
    if (!key) throw new HttpError(401, "Missing API key: send it in the x-api-key header");
    const account = ctx.accounts.byKey(key);
    if (!account) throw new HttpError(401, "Invalid API key");
    if (!account.subscriptionActive) throw new HttpError(403, MESSAGES.noSubscription);
    c.set("account", account);
    c.set("body", body);
    await next();
  };
}

/** The polling routes' rate limit, per key. */
export function limitPolling(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { ok, retryAfter } = ctx.pollLimit.buckets.take(c.get("account").apiKey);
    if (!ok)
      throw new HttpError(
        429,
        `Too many polling requests: at most ${ctx.pollLimit.perMinute} a minute. Retry after ${retryAfter} s, or use the push channel.`,
        { headers: { "retry-after": String(retryAfter) } },
      );
    await next();
  };
}
