import { flagArgs, startCliProcess, startScriptProcess, type CliProcess } from "./cli-process.ts";

export interface ProxyProcess extends CliProcess<{ url: string }> {
  stop(): Promise<void>;
}

/**
 * Starts `babylon-skybox proxy` as a child process, as users run it, with the key (and
 * secret) in its environment, and reads the `{"url"}` line it prints once listening.
 */
export async function startProxyProcess(
  keys: { apiKey: string; apiSecret?: string; publicUrl?: string },
  flags: Record<string, string | number | boolean> = {},
  /** The package's compiled command (`dist/cli/bin.js`, `npm run build` first) rather than the sources through tsx; `env`: more of its environment. */
  { built = false, env: more = {} }: { built?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<ProxyProcess> {
  const env = {
    ...process.env,
    ...more,
    SKYBOX_API_KEY: keys.apiKey,
    ...(keys.apiSecret ? { SKYBOX_API_SECRET: keys.apiSecret } : {}),
    ...(keys.publicUrl ? { SKYBOX_PUBLIC_URL: keys.publicUrl } : {}),
  };
  const args = ["proxy", ...flagArgs({ port: 0, ...flags })];
  const started = await (built
    ? startScriptProcess<{ url: string }>("dist/cli/bin.js", args, env)
    : startCliProcess<{ url: string }>(args, env));
  return { ...started, stop: () => started.kill("SIGTERM") };
}
