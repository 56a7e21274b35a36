/**
 * Where the local service may POST webhooks. A `webhook_url` is a request to make the
 * service send signed records to an address of the caller's choosing, so when the service
 * listens on an interface others reach, private and loopback destinations (the machine
 * itself, its LAN, cloud metadata at 169.254.169.254) are refused unless it was started
 * with `--allow-private-webhooks`. While it listens on loopback only (its default), only
 * local processes can ask, and they can reach those addresses themselves: all are allowed.
 *
 * What is checked: IP literals in every spelling the URL standard accepts (`2130706433`,
 * `0x7f.1`, `[::ffff:127.0.0.1]`), `localhost` and `*.localhost` names, and for other host
 * names every address DNS gives, when the request arrives and again before each delivery
 * attempt. Not covered: a DNS answer that changes between that lookup and the connection
 * (rebinding with a zero TTL); a name that does not resolve when the request arrives is
 * accepted and checked again at delivery.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { isPublicAddress } from "../../api/rules/public-address.ts";
import { issue } from "../../api/rules/rule-issue.ts";
import { brokenRules } from "./domain-error.ts";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Longest wait for DNS when a request arrives (delivery checks again). */
const LOOKUP_TIMEOUT_MS = 2_000;

export type Lookup = (host: string) => Promise<string[]>;

const lookupAll: Lookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Whether `address` (an IP literal) is private, loopback, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  return isIP(address) !== 0 && !isPublicAddress(address);
}

const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/** Whether a listening host (`--host`) is reached from this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isLocalhostName(bare)) return true;
  const family = isIP(bare);
  return family === 4 ? LOOPBACK.check(bare, "ipv4") : family === 6 && LOOPBACK.check(bare, "ipv6");
}

export class WebhookTargets {
  constructor(
    readonly allowPrivate: boolean,
    private readonly _lookup: Lookup = lookupAll,
  ) {}

  /**
   * The private address `url` reaches, or null when it may receive webhooks. A host that
   * does not resolve (in time) passes, or with `strict` (at delivery) is an error.
   */
  async privateAddressOf(url: string, strict = false): Promise<string | null> {
    if (this.allowPrivate) return null;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (isIP(host)) return isPrivateAddress(host) ? host : null;
    if (isLocalhostName(host)) return host;
    const addresses = await withTimeout(this._lookup(host), LOOKUP_TIMEOUT_MS).catch((error: Error) => {
      if (strict) throw new Error(`could not resolve ${host} to check it: ${error.message}`);
      return null;
    });
    if (addresses === null) return null;
    return addresses.find(isPrivateAddress) ?? null;
  }

  /** Refuses a request's webhook URL that reaches a private address, with a sentence naming the field. */
  async check(field: string, value: unknown): Promise<void> {
    if (this.allowPrivate || typeof value !== "string" || !/^https?:\/\//i.test(value) || !URL.canParse(value)) return; // the request's schema refuses what is no http(s) URL
    const address = await this.privateAddressOf(value);
    if (address !== null) throw brokenRules([issue(field, "webhook-public", refusal(value, address))]);
  }
}

function refusal(url: string, address: string): string {
  const host = new URL(url).hostname;
  const reached = host.replace(/^\[|\]$/g, "") === address ? address : `${host} is ${address}`;
  return `must not be a private or loopback address (${reached}); start the local service with --allow-private-webhooks to allow it`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error("timed out")), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
