/**
 * Options of the proxy for many users behind one key and many instances behind a load
 * balancer. Without `identify` and `userHeader` there is one user, as before: nothing is
 * owned and everyone sees everything.
 */
import { fetchRequestOf, type ProxyRequest } from "../proxy-request.ts";
import type { ProxyStore } from "../store/proxy-store.ts";

/** Who the users are and what each may do: `identify` or `userHeader`, administrators, daily credits, the store. */
export interface UserOptions {
  /**
   * The user a request comes from, for apps that authenticate in code: the app's session
   * lookup, a verified token's subject. Null or empty: the request is refused with 401.
   * Called for the API, the event stream and assets; never for `/config` and `/webhook`.
   * @example (request) => sessions.userOf(request.headers.get("cookie"))
   */
  identify?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * A request header that the app's authenticating layer (an auth proxy, the app's own
   * middleware) sets to the user id, for deployments that authenticate in front of the
   * proxy. Trusted as is: the proxy must be reachable only through that layer, which must
   * overwrite the header on every request. Not with `identify`.
   * @example "x-forwarded-user"
   */
  userHeader?: string;
  /** Users who see, follow and cancel everyone's records, and records with no known owner. @default [] */
  adminUsers?: readonly string[];
  /**
   * Credits each user may spend in a UTC day, priced as src/api prices them (Model 3,
   * Model 4 by variant, edit, image-to-pano, each item of a batch). A generation or batch
   * that would pass it is refused with 429; aborted and errored generations give their
   * credits back. Without users, it caps the whole proxy. @default no cap
   */
  userDailyCredits?: number;
  /**
   * Where the relay, rate limits, replay guard, ownership ledger and spend counters live:
   * `createRedisStore({ url })` shares them between instances; the default keeps them in
   * this process's memory (one instance). The caller closes a store it gives.
   * @default createMemoryStore()
   */
  store?: ProxyStore;
}

/** The user options checked, with defaults. */
export interface ResolvedUserOptions {
  /** The user of a request, or null; null itself when users are not configured. */
  identify: ((request: ProxyRequest) => Promise<string | null>) | null;
  /** How a missing user is explained in the 401. */
  missingUser: string;
  admins: ReadonlySet<string>;
  dailyCredits: number | null;
}

/** Longest user id accepted; ids are keys of the store. */
const MAX_USER_LENGTH = 256;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function resolveUserOptions(options: UserOptions): ResolvedUserOptions {
  const { identify, userHeader } = options;
  if (identify && userHeader) throw new Error("createSkyboxProxy: give identify or userHeader, not both");
  if (userHeader !== undefined && !HEADER_NAME.test(userHeader))
    throw new Error(`createSkyboxProxy: userHeader is not a header name: ${JSON.stringify(userHeader)}`);
  const credits = options.userDailyCredits;
  if (credits !== undefined && !(Number.isInteger(credits) && credits >= 0))
    throw new Error("createSkyboxProxy: userDailyCredits must be a whole number of credits, 0 or more");
  const header = userHeader?.toLowerCase();
  // The app's hook gets a Fetch-API Request; a trusted header is read in place.
  const find = identify
    ? (request: ProxyRequest) => identify(fetchRequestOf(request))
    : header
      ? (request: ProxyRequest) => request.headers.get(header)
      : null;
  return {
    identify: find && (async (request) => userIdOf(await find(request))),
    missingUser: header
      ? `This request has no ${header} header naming its user; requests reach the Skybox proxy through the app's sign-in`
      : "The app did not identify a user for this request",
    admins: new Set(options.adminUsers ?? []),
    dailyCredits: credits ?? null,
  };
}

function userIdOf(value: string | null | undefined): string | null {
  const id = value?.trim();
  return id && id.length <= MAX_USER_LENGTH ? id : null;
}
