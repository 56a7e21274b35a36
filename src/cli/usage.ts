/**
 * What the `babylon-skybox` command takes, in one place that loads nothing else: each
 * command's module (the whole local service for `local`) loads only when it runs.
 */
import { PUSH_USAGE } from "./push-flags.ts";
import { RATE_LIMIT_USAGE } from "./rate-limit-flag.ts";

export const LOCAL_USAGE = `babylon-skybox local [--port 8790] [--host 127.0.0.1] [--data-dir .skybox-local]
  [--api-key K] [--api-secret S] [--plan free|essential|standard|business] [--speed N]
  [--image-scale F] [--export-scale F (default: --image-scale)] [--rate-limit N (polls a minute per key)] [--admin-token T] [--log-level info|debug]
  [--allow-private-webhooks (with a --host other than loopback: webhook_url may still name loopback and private addresses)]`;

export const ACCOUNTS_USAGE = `babylon-skybox accounts list [--data-dir .skybox-local]
  babylon-skybox accounts add [--data-dir .skybox-local] [--plan P] [--credits N] [--api-key K] [--api-secret S] [--username U] [--inactive] [--overage]`;

export const SAVE_USAGE = `babylon-skybox save <id|obfuscated_id> --out DIR [--proxy URL | --upstream URL] [--force]
    [--hdr-resolution 1K] [--background-width 4096] [--background-format jpeg|webp] [--no-backdrop]
    [--mesh-quality low|medium|high|epic] [--depth-scale 3..10] [--rotation RADIANS] [--intensity N] [--blur 0..1]
    (SKYBOX_API_KEY from the environment, unless --proxy)`;

export const USAGE = `usage:
  ${LOCAL_USAGE}
  ${ACCOUNTS_USAGE}
  babylon-skybox proxy [--port 8787] [--host 127.0.0.1] [--upstream URL] [--base-path /skybox] [--allow-origin URL]... ${RATE_LIMIT_USAGE}
    ${PUSH_USAGE}
    (SKYBOX_API_KEY, SKYBOX_API_SECRET, SKYBOX_PUBLIC_URL from the environment; the push flags also as
    SKYBOX_PUSHER_KEY, SKYBOX_PUSHER_CLUSTER, SKYBOX_PUSHER_WS_HOST, SKYBOX_PUSHER_WS_PORT, SKYBOX_PUSHER_FORCE_TLS)
    users and instances: [--user-header NAME] [--admin-users a,b] [--user-daily-credits N] [--redis URL]
    (SKYBOX_USER_HEADER, SKYBOX_REDIS_URL from the environment)
  ${SAVE_USAGE}`;
