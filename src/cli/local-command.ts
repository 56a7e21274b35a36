import { parseArgs } from "node:util";
import * as z from "zod";
import { PLANS } from "../api/reference.ts";
import { num } from "../api/schemas/fields.ts";
import { startLocalSkyboxService } from "../local/index.ts";
import { logStrayErrors } from "./stray-errors.ts";
import { LOCAL_USAGE } from "./usage.ts";

/** Flags without a value. */
const SWITCHES = { "allow-private-webhooks": z.boolean().default(false) };

const Flags = z.strictObject({
  port: z.pipe(num, z.number().int().min(0).max(65535)).default(8790),
  host: z.string().default("127.0.0.1"),
  "data-dir": z.string().default(".skybox-local"),
  "api-key": z.string().min(8).optional(),
  "api-secret": z.string().min(8).optional(),
  plan: z.enum(PLANS).optional(),
  speed: z.pipe(num, z.number().positive()).default(1),
  "image-scale": z.pipe(num, z.number().positive().max(1)).default(1),
  "export-scale": z.pipe(num, z.number().positive().max(1)).optional(),
  "rate-limit": z.pipe(num, z.number().int().positive()).optional(),
  "admin-token": z.string().min(8).optional(),
  "log-level": z.enum(["info", "debug"]).optional(),
  ...SWITCHES,
});

/**
 * `babylon-skybox local`: starts the local Skybox service and prints one JSON line once
 * listening: url, apiKey, apiSecret, adminToken and the push settings.
 */
export async function runLocalCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: Object.fromEntries(
      Object.keys(Flags.shape).map((k) => [k, { type: k in SWITCHES ? ("boolean" as const) : ("string" as const) }]),
    ),
  });
  const parsed = Flags.safeParse(values);
  if (!parsed.success) throw new Error(`${z.prettifyError(parsed.error)}\nusage: ${LOCAL_USAGE}`);
  const f = parsed.data;
  const log = (line: string) => console.error(`[skybox-local] ${line}`);
  logStrayErrors(log);
  const service = await startLocalSkyboxService({
    port: f.port,
    host: f.host,
    dataDir: f["data-dir"],
    speed: f.speed,
    imageScale: f["image-scale"],
    ...(f["export-scale"] ? { exportScale: f["export-scale"] } : {}),
    ...(f["api-key"] ? { apiKey: f["api-key"] } : {}),
    ...(f["api-secret"] ? { apiSecret: f["api-secret"] } : {}),
    ...(f.plan ? { plan: f.plan } : {}),
    ...(f["rate-limit"] ? { rateLimit: f["rate-limit"] } : {}),
    ...(f["admin-token"] ? { adminToken: f["admin-token"] } : {}),
    ...(f["log-level"] ? { logLevel: f["log-level"] } : {}),
    log,
    // Without the switch, the service decides from --host (loopback: allowed).
    ...(f["allow-private-webhooks"] ? { allowPrivateWebhooks: true } : {}),
  });
  // JSON leaves out `close`, the one function: the line holds the service's URL, key and settings.
  process.stdout.write(`${JSON.stringify(service)}\n`);
  const stop = () =>
    void service.close().then(
      () => process.exit(0),
      (error: Error) => {
        log(`closing failed: ${error.message}`);
        process.exit(1);
      },
    );
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
