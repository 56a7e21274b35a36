/**
 * Which addresses count as the public internet, for the two places that connect where a
 * caller says: the proxy's asset passthrough and the local service's webhooks. Anything
 * else (loopback, private, link-local with cloud metadata at 169.254.169.254, carrier-grade
 * NAT, multicast, documentation and benchmarking ranges, IPv6 translations and tunnels that
 * can embed a private IPv4) is refused: a request must not reach into the server's own
 * network. ipaddr.js keeps IANA's special-purpose registries; its `process` reads an
 * IPv4-mapped IPv6 address as the IPv4 address it carries.
 */
import ipaddr from "ipaddr.js";

/**
 * True for an IP address on the public internet, written as DNS answers and URL parsers give
 * it (dotted-quad IPv4, or IPv6 with or without brackets). Anything else is false: a spelling
 * such as `0x7f.1` is refused rather than guessed at.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return false;
  return ipaddr.process(bare).range() === "unicast";
}
