import { flagArgs, startCliProcess, type CliProcess } from "./cli-process.ts";

export interface ProxyProcess extends CliProcess<{ url: string }> {
  stop(): Promise<void>;
}

/**
 * Starts `babylon-skybox proxy` as a child process, as users run it, with the key (and
 * secret) in its environment, and reads the `{"url"}` line it prints once listening.
 */
export async function startProxyProcess(keys: { apiKey: string; apiSecret?: string }, flags: Record<string, string | number | boolean> = {}): Promise<ProxyProcess> {
  const env = { ...process.env, SKYBOX_API_KEY: keys.apiKey, ...(keys.apiSecret ? { SKYBOX_API_SECRET: keys.apiSecret } : {}) };
  const started = await startCliProcess<{ url: string }>(["proxy", ...flagArgs({ port: 0, ...flags })], env);
  return { ...started, stop: () => started.kill("SIGTERM") };
}
