/**
 * Where the proxy's own requests leave the machine: undici's Agent (kept-alive connections
 * per origin), or undici's EnvHttpProxyAgent when the environment names an egress proxy
 * (`HTTPS_PROXY`, `HTTP_PROXY` or their lower-case forms, with `NO_PROXY` honoured), as
 * servers inside a company network are often told to. A loopback host is always reached
 * directly, whatever the environment says: an egress proxy cannot reach this machine's
 * loopback, and the local service listens there (Go's HTTP client does the same).
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from "undici";

/** True when the environment names an egress proxy for http or https. */
export function namesEgressProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY);
}

/** `localhost` and the loopback addresses: hosts on this machine. */
export function isLoopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** An agent through the environment's egress proxy when it names one, else a direct one. */
export function egressAgent(options: Agent.Options): Dispatcher {
  return namesEgressProxy() ? new EnvHttpProxyAgent(options) : new Agent(options);
}
