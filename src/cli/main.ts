import { USAGE } from "./usage.ts";

/** The `babylon-skybox` command: `local`, `accounts`, `proxy` and `save`. */
export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    // Each command loads its own modules: the proxy's process holds none of the local service's.
    if (command === "local") return await (await import("./local-command.ts")).runLocalCommand(rest);
    if (command === "accounts") return (await import("./accounts-command.ts")).runAccountsCommand(rest);
    if (command === "proxy") return await (await import("./proxy-command.ts")).runProxyCommand(rest);
    if (command === "save") return await (await import("./save-command.ts")).runSaveCommand(rest);
    console.error(USAGE);
    process.exitCode = command ? 2 : 0;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

// Run directly (`tsx src/cli/main.ts local`), not when imported by bin.ts.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"))) await main(process.argv.slice(2));
