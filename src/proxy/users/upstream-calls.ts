/**
 * Requests the proxy makes on its own behalf while responding to one (a history page read item
 * by item, a user's pending generations cancelled one by one, the styles for prices). They
 * go through the same forwarding as a browser's request, so the key, the timeouts, the
 * asset URLs and the scrubbing are those of every response.
 */
import { messageFromBody } from "../../api/errors/error-message.ts";
import { API_PREFIX } from "../../api/protocol/routes.ts";
import { forwardApi, type ApiContext } from "../upstream/api-forward.ts";
import { ProxyError } from "../proxy-error.ts";
import { ownRequest } from "../proxy-request.ts";

/** The parsed response to `method path?query` of the API (`path` after `/api/v1`); a refusal throws it as a ProxyError. */
export type UpstreamCall = (method: "GET" | "DELETE", path: string, query?: URLSearchParams) => Promise<unknown>;

/** Calls made while responding to a request (its signal ends them with it), or on the proxy's own account. */
export function upstreamCalls(api: ApiContext, signal?: AbortSignal): UpstreamCall {
  return async (method, path, query) => {
    // Only the query of this URL is read; the path travels beside it.
    const request = ownRequest(method, `http://skybox-proxy.invalid${API_PREFIX}${path}${query?.size ? `?${query}` : ""}`, {
      accept: "application/json",
    });
    const forwarded = await forwardApi(api, request, `${API_PREFIX}${path}`, signal);
    const body = forwarded.json();
    if (!forwarded.ok) throw new ProxyError(forwarded.status, messageFromBody(body) ?? `The Skybox API answered ${forwarded.status}`);
    return body;
  };
}

/** Runs `work` on every item, `limit` at a time, keeping the order of the results. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
