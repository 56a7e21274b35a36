import { ACCOUNTS_USAGE, runAccountsCommand } from "./accounts-command.ts";
import { LOCAL_USAGE, runLocalCommand } from "./local-command.ts";
import { PUSH_USAGE } from "./push-flags.ts";
import { RATE_LIMIT_USAGE } from "./rate-limit-flag.ts";

const USAGE = `usage:
  ${LOCAL_USAGE}
  ${ACCOUNTS_USAGE}
  babylon-skybox proxy [--port 8787] [--host 127.0.0.1] [--upstream URL] [--base-path /skybox] [--allow-origin URL]... ${RATE_LIMIT_USAGE}
    ${PUSH_USAGE}
    (SKYBOX_API_KEY, SKYBOX_API_SECRET, SKYBOX_PUBLIC_URL from the environment; the push flags also as
    SKYBOX_PUSHER_KEY, SKYBOX_PUSHER_CLUSTER, SKYBOX_PUSHER_WS_HOST, SKYBOX_PUSHER_WS_PORT, SKYBOX_PUSHER_FORCE_TLS)
    users and instances: [--user-header NAME] [--admin-users a,b] [--user-daily-credits N] [--redis URL]
    (SKYBOX_USER_HEADER, SKYBOX_REDIS_URL from the environment)`;

/** The `babylon-skybox` command: `local` and `proxy`. */
export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (command === "local") return await runLocalCommand(rest);
    if (command === "accounts") return await runAccountsCommand(rest);
    if (command === "proxy") {
      const { runProxyCommand } = await import("./proxy-command.ts");
      return await runProxyCommand(rest);
    }
    console.error(USAGE);
    process.exitCode = command ? 2 : 0;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

// Run directly (`tsx src/cli/main.ts local`), not when imported by bin.ts.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"))) await main(process.argv.slice(2));
