/**
 * The push settings `babylon-skybox proxy` hands browsers in its `/config`: flags first,
 * then the environment. With `--pusher-ws-host` they point pusher-js at another
 * Pusher-protocol server, such as `babylon-skybox local` (its JSON line's `pusher`).
 *
 * | flag | environment | meaning |
 * |---|---|---|
 * | `--pusher-key` | `SKYBOX_PUSHER_KEY` | the public app key |
 * | `--pusher-cluster` | `SKYBOX_PUSHER_CLUSTER` | the cluster (default mt1) |
 * | `--pusher-ws-host` | `SKYBOX_PUSHER_WS_HOST` | another push server's host |
 * | `--pusher-ws-port` | `SKYBOX_PUSHER_WS_PORT` | its port |
 * | `--pusher-force-tls` | `SKYBOX_PUSHER_FORCE_TLS` | `wss:` to it (default: on without a host, off with one) |
 */
import * as z from "zod/mini";
import { PushSettings } from "../api/protocol/push-settings.ts";
import { flag, integerFrom } from "../api/schemas/fields.ts";

export const PUSH_FLAGS = {
  "pusher-key": { type: "string" },
  "pusher-cluster": { type: "string" },
  "pusher-ws-host": { type: "string" },
  "pusher-ws-port": { type: "string" },
  "pusher-force-tls": { type: "string" },
} as const;

export const PUSH_USAGE = "[--pusher-key K] [--pusher-cluster C] [--pusher-ws-host H --pusher-ws-port P] [--pusher-force-tls true|false]";

const nonEmpty = z.string().check(z.minLength(1, { error: "must not be empty" }));
const PushInput = z.strictObject({
  key: nonEmpty,
  cluster: z.optional(nonEmpty),
  wsHost: z.optional(nonEmpty),
  wsPort: z.optional(integerFrom(1, 65535)),
  forceTLS: z.optional(flag),
});

type Flags = Partial<Record<keyof typeof PUSH_FLAGS, string | undefined>>;

/** The push settings the flags and environment give; null without a key. Throws naming a bad value. */
export function pushSettingsOf(flags: Flags, env: NodeJS.ProcessEnv): PushSettings | null {
  const pick = (name: keyof typeof PUSH_FLAGS) => flags[name] ?? env[`SKYBOX_${name.toUpperCase().replaceAll("-", "_")}`];
  const given = {
    key: pick("pusher-key"),
    cluster: pick("pusher-cluster"),
    wsHost: pick("pusher-ws-host"),
    wsPort: pick("pusher-ws-port"),
    forceTLS: pick("pusher-force-tls"),
  };
  if (!given.key) {
    if (Object.values(given).some(Boolean)) throw new Error("Push settings need a key: --pusher-key or SKYBOX_PUSHER_KEY");
    return null;
  }
  const parsed = PushInput.safeParse(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== "")));
  if (!parsed.success) throw new Error(`Push settings: ${z.prettifyError(parsed.error)}`);
  return PushSettings.parse(parsed.data);
}
