/**
 * Who is asking: the user the app's authentication named, whether that user is an
 * administrator, and whether users are configured at all (without them there is one user
 * who sees everything, as a proxy for one person is used).
 */
import { ProxyError } from "../proxy-error.ts";
import type { ProxyRequest } from "../proxy-request.ts";
import type { ResolvedUserOptions } from "./user-options.ts";

export interface Caller {
  /** The user id; "" when users are not configured. */
  user: string;
  /** Sees everyone's records and records with no known owner. */
  admin: boolean;
  /** Users are configured: records are owned, and checked on every read. */
  owned: boolean;
}

/** The one user of a proxy without users. */
export const SOLE_USER: Caller = { user: "", admin: true, owned: false };

/** Routes any visitor may use: the browser's settings, and the upstream's signed webhooks. */
const OPEN_ROUTES: ReadonlySet<string> = new Set(["/config", "/webhook"]);

/**
 * The caller of a request to `rest` (the path after the base path): null for the open
 * routes, else the identified user; a 401 when users are configured and none is named.
 */
export async function callerOf(users: ResolvedUserOptions, request: ProxyRequest, rest: string): Promise<Caller | null> {
  if (OPEN_ROUTES.has(rest)) return null;
  if (!users.identify) return SOLE_USER;
  const user = await users.identify(request);
  if (!user) throw new ProxyError(401, users.missingUser);
  return { user, admin: users.admins.has(user), owned: true };
}

/** The caller may see a record owned by `owner` (null: no known owner, administrators only). */
export function maySee(caller: Caller, owner: string | null): boolean {
  return caller.admin || (owner !== null && owner === caller.user);
}

/** The rate limit's key: the user when users are configured, else the client (its address or trusted header). */
export function limitKeyOf(caller: Caller | null, client: string): string {
  return caller?.owned ? `rate:user:${caller.user}` : `rate:client:${client}`;
}
