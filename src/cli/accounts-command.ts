import { resolve } from "node:path";
import { parseArgs } from "node:util";
import * as z from "zod";
import { PLANS } from "../api/reference.ts";
import { num } from "../api/schemas/fields.ts";
import { DataStore } from "../local/store/data-store.ts";
import { ACCOUNTS_USAGE } from "./usage.ts";

const AddFlags = z.strictObject({
  "data-dir": z.string().default(".skybox-local"),
  plan: z.enum(PLANS).optional(),
  credits: z.pipe(num, z.number().int().min(0)).optional(),
  "api-key": z.string().min(8).optional(),
  "api-secret": z.string().min(8).optional(),
  username: z.string().min(1).optional(),
  inactive: z.boolean().optional(),
  overage: z.boolean().optional(),
});

/**
 * `babylon-skybox accounts`: lists or adds accounts of a local service's data directory
 * (stop the service first, or use its /_admin routes while it runs). `add` prints the new
 * account with its key and secret as one JSON line; `list` never prints keys.
 */
export function runAccountsCommand(argv: string[]): void {
  const [action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      ...Object.fromEntries(
        ["data-dir", "plan", "credits", "api-key", "api-secret", "username"].map((k) => [k, { type: "string" as const }]),
      ),
      inactive: { type: "boolean" },
      overage: { type: "boolean" },
    },
  });
  const parsed = AddFlags.safeParse(values);
  if (!parsed.success || (action !== "add" && action !== "list"))
    throw new Error(`${parsed.error ? z.prettifyError(parsed.error) : ""}\nusage: ${ACCOUNTS_USAGE}`);
  const f = parsed.data;
  const data = new DataStore(resolve(f["data-dir"]));
  const { accounts } = data;
  if (action === "list") {
    for (const { apiKey: _k, apiSecret: _s, ...a } of accounts.all) process.stdout.write(`${JSON.stringify(a)}\n`);
    data.close();
    return;
  }
  const a = accounts.upsert({
    ...(f.plan ? { plan: f.plan } : {}),
    ...(f.credits !== undefined ? { credits: f.credits } : {}),
    ...(f["api-key"] ? { apiKey: f["api-key"] } : {}),
    ...(f["api-secret"] ? { apiSecret: f["api-secret"] } : {}),
    ...(f.username ? { username: f.username } : {}),
    ...(f.inactive ? { subscriptionActive: false } : {}),
    ...(f.overage ? { overage: true } : {}),
  });
  data.close();
  process.stdout.write(
    `${JSON.stringify({ id: a.id, username: a.username, plan: a.plan, credits: a.credits, apiKey: a.apiKey, apiSecret: a.apiSecret })}\n`,
  );
}
