/**
 * `babylon-skybox proxy [--port 8787] [--host 127.0.0.1] [--upstream URL] [--base-path /skybox]
 * [--allow-origin URL]... [--rate-limit PER_SECOND[/BURST]|off] [push flags] [user flags]`: runs the proxy with the key from the environment and
 * prints `{"url":"http://127.0.0.1:8787"}` once listening.
 *
 * Environment: SKYBOX_API_KEY (required), SKYBOX_API_SECRET (webhook relay),
 * SKYBOX_PUBLIC_URL (where the upstream posts webhooks and browsers reach the proxy), and the
 * push settings handed to browsers (push-flags.ts: SKYBOX_PUSHER_KEY, SKYBOX_PUSHER_CLUSTER,
 * SKYBOX_PUSHER_WS_HOST, SKYBOX_PUSHER_WS_PORT, SKYBOX_PUSHER_FORCE_TLS, or their flags). In
 * front of `babylon-skybox local`, give its `pusher` key, wsHost and wsPort, and pusher-js
 * in the browser connects to the local push server. Users and Redis (user-flags.ts):
 * SKYBOX_USER_HEADER, SKYBOX_REDIS_URL, or their flags.
 */
import { parseArgs } from "node:util";
import { createScrubber } from "../proxy/key-scrubber.ts";
import { startSkyboxProxyServer } from "../proxy/node/proxy-server.ts";
import { logStrayErrors } from "./stray-errors.ts";
import { PUSH_FLAGS, pushSettingsOf } from "./push-flags.ts";
import { rateLimitOf } from "./rate-limit-flag.ts";
import { USER_FLAGS, userOptionsOf } from "./user-flags.ts";

export async function runProxyCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      upstream: { type: "string" },
      "base-path": { type: "string" },
      "allow-origin": { type: "string", multiple: true },
      "rate-limit": { type: "string" },
      ...PUSH_FLAGS,
      ...USER_FLAGS,
    },
    strict: true,
  });
  const apiKey = env.SKYBOX_API_KEY;
  if (!apiKey) throw new Error("SKYBOX_API_KEY is not set. For an offline service without a key, run `babylon-skybox local`.");
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  const pusher = pushSettingsOf(values, env);
  const users = await userOptionsOf(values, env);
  const rateLimit = rateLimitOf(values["rate-limit"]);
  const scrubber = createScrubber([apiKey, env.SKYBOX_API_SECRET ?? null]);
  logStrayErrors(
    (line) => console.error(line),
    (text) => scrubber.text(text),
  );
  const server = await startSkyboxProxyServer({
    ...users,
    port,
    host: values.host,
    apiKey,
    apiSecret: env.SKYBOX_API_SECRET,
    publicUrl: env.SKYBOX_PUBLIC_URL,
    ...(values.upstream ? { upstream: values.upstream } : {}),
    ...(values["base-path"] ? { basePath: values["base-path"] } : {}),
    allowedOrigins: values["allow-origin"] ?? [],
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    pusher,
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const stop = () =>
    void server
      .close()
      .then(() => users.store?.close())
      .then(
        () => process.exit(0),
        (error: Error) => {
          console.error(`babylon-skybox proxy: closing failed: ${error.message}`);
          process.exit(1);
        },
      );
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
