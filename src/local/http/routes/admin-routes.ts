import * as z from "zod";
import { PLANS } from "../../../api/reference.ts";
import type { App, ServiceContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { parseInput } from "../parse-input.ts";
import { readBody } from "../body-reader.ts";
import { timingSafeEqual } from "node:crypto";

const AccountInput = z.strictObject({
  username: z.string().min(1).optional(),
  apiKey: z.string().min(8).optional(),
  apiSecret: z.string().min(8).optional(),
  plan: z.enum(PLANS).optional(),
  credits: z.number().int().min(0).optional(),
  subscriptionActive: z.boolean().optional(),
  overage: z.boolean().optional(),
});
const SettingsInput = z.strictObject({ generationsDisabled: z.boolean() });

/**
 * Operator routes under /_admin, for tests and a local team: add or change accounts and
 * flip platform switches. They need `authorization: Bearer <admin token>` (printed by
 * `babylon-skybox local` as `adminToken`).
 */
export function adminRoutes(app: App, ctx: ServiceContext, adminToken: string): void {
  app.use("/_admin/*", async (c, next) => {
    const given = Buffer.from(c.req.header("authorization")?.replace(/^Bearer\s+/i, "") ?? "");
    const expected = Buffer.from(adminToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, "Invalid admin token");
    await next();
  });
  app.get("/_admin/accounts", (c) => c.json(ctx.accounts.all.map(({ apiKey: _k, apiSecret: _s, ...rest }) => rest)));
  app.post("/_admin/accounts", async (c) => {
    const account = ctx.accounts.upsert(parseInput(AccountInput, await readBody(c.req.raw)));
    return c.json({
      id: account.id,
      username: account.username,
      apiKey: account.apiKey,
      apiSecret: account.apiSecret,
      plan: account.plan,
      credits: account.credits,
    });
  });
  app.post("/_admin/settings", async (c) => {
    Object.assign(ctx.settings, parseInput(SettingsInput, await readBody(c.req.raw)));
    return c.json(ctx.settings);
  });
}
