import type { UpstreamKind } from "../../api/protocol/proxy-config.ts";
import { isLoopbackHost } from "../egress-agent.ts";

export type { UpstreamKind };

/** The real Skybox API. The only place its address is written down. */
export const REAL_SKYBOX_UPSTREAM = "https://backend.blockadelabs.com";

/** A loopback upstream is the local service unless told otherwise. */
export function guessUpstreamKind(upstream: URL): UpstreamKind {
  return isLoopbackHost(upstream) ? "local" : "real";
}

/** The upstream's address for an API path (`/api/v1/...`), keeping a path prefix the upstream may have. */
export function upstreamUrl(upstream: URL, apiPath: string, search: string): string {
  return `${upstream.origin}${upstream.pathname.replace(/\/+$/, "")}${apiPath}${search}`;
}
