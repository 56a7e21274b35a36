/**
 * Who a request comes from, as the key of the proxy's rate limit: the last entry of the
 * trusted header when configured, else the socket address the adapter reports, else one
 * shared bucket.
 */
import type { ProxyRequest } from "./proxy-request.ts";
export function clientOf(request: ProxyRequest, clientAddress: string | undefined, header: string | null): string {
  if (header) {
    const last = request.headers.get(header)?.split(",").pop()?.trim();
    if (last) return last;
  }
  return clientAddress ?? "unknown";
}
