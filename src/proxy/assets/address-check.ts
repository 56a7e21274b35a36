/**
 * Private, loopback, link-local and otherwise non-public addresses, which the asset
 * passthrough must not reach (server-side request forgery into the proxy's network). The
 * check runs on the addresses a host name resolves to, at connect time, so a name that
 * resolves differently on the second lookup (DNS rebinding) is caught too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { lookup as dnsLookupAll } from "node:dns/promises";
import { type LookupFunction } from "node:net";
import { isPublicAddress } from "../../api/rules/public-address.ts";

/** True for an address the passthrough must not connect to (see public-address.ts). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** The spellings of this machine that name the same host: nothing else on loopback. */
const LOOPBACK_SPELLINGS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * True when `url` is on the upstream's own host and port, the one private host the asset
 * passthrough may reach. `localhost`, `127.0.0.1` and `[::1]` are one host (an upstream
 * given as `http://localhost:8790` names its files at 127.0.0.1), and no other address is.
 */
export function isUpstreamHost(url: URL, upstream: URL): boolean {
  if (portOf(url) !== portOf(upstream)) return false;
  const [a, b] = [url.hostname.toLowerCase(), upstream.hostname.toLowerCase()];
  return a === b || (LOOPBACK_SPELLINGS.has(a) && LOOPBACK_SPELLINGS.has(b));
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

export class PrivateAddressError extends Error {
  override name = "PrivateAddressError" as const;
}

/** Why `hostname` may not be reached at `addresses`, or null when every one is public. */
function refusalOf(hostname: string, addresses: readonly LookupAddress[]): PrivateAddressError | null {
  const bad = addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address));
  return bad ? new PrivateAddressError(`${hostname} resolves to a private address`) : null;
}

/** A `lookup` for Node's net and tls connections that fails when any resolved address is private. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const refusal = refusalOf(hostname, addresses);
    if (refusal) return callback(refusal, "", 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** Rejects when `hostname` resolves to any private address (for a connection another machine makes: an egress proxy). */
export async function checkPublicHost(hostname: string): Promise<void> {
  const refusal = refusalOf(hostname, await dnsLookupAll(hostname, { all: true }));
  if (refusal) throw refusal;
}
