/**
 * The proxy's users, as the request handler meets them: who is asking (a 401 without a
 * user when users are configured), the API forwarded for that caller, which event channels
 * the caller may follow, and status messages from webhooks settling credits. Without users
 * and without a daily cap this is a plain pass-through: nothing is read from the store.
 */
import type { ApiContext } from "../upstream/api-forward.ts";
import { forwardApi } from "../upstream/api-forward.ts";
import { ProxyError } from "../proxy-error.ts";
import type { ProxyRequest } from "../proxy-request.ts";
import type { RouteResponse } from "../text-response.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { callerOf, type Caller } from "./caller.ts";
import { CreditPrices } from "./credit-prices.ts";
import { GenerationCharges } from "./generation-charges.ts";
import { forwardOwned } from "./owned-api.ts";
import type { OwnedContext } from "./owned-context.ts";
import { OwnershipLedger } from "./ownership-ledger.ts";
import { generationsIn, refOf, type RecordKind } from "./record-refs.ts";
import { upstreamCalls } from "./upstream-calls.ts";
import { resolveUserOptions, type UserOptions } from "./user-options.ts";

export interface ProxyUsers {
  /** The caller of a request to `rest` (path after the base path); null for `/config` and `/webhook`. */
  callerOf(request: ProxyRequest, rest: string): Promise<Caller | null>;
  /** An API request forwarded for the caller. */
  forward(caller: Caller, request: ProxyRequest, apiPath: string): Promise<RouteResponse>;
  /** Throws a 404 unless the caller may follow every channel. */
  checkChannels(caller: Caller, channels: readonly string[]): Promise<void>;
  /** A status message from a webhook: ended generations settle their credits. */
  observe: (record: unknown) => Promise<void>;
}

export function createProxyUsers(options: UserOptions, store: ProxyStore, api: ApiContext): ProxyUsers {
  const users = resolveUserOptions(options);
  const counted = Boolean(users.identify) || users.dailyCredits !== null;
  const ledger = new OwnershipLedger(store);
  const charges = counted ? new GenerationCharges(store, users.dailyCredits) : null;
  const prices = new CreditPrices(async () => {
    const upstream = upstreamCalls(api);
    return Promise.all(
      [3, 4].map((v) => upstream("GET", "/skybox/styles", new URLSearchParams({ model_version: String(v) })).catch(() => [])),
    );
  });
  const ctx: OwnedContext = { api, ledger, charges, prices };
  return {
    callerOf: (request, rest) => callerOf(users, request, rest),
    forward: (caller, request, apiPath) => (counted ? forwardOwned(ctx, caller, request, apiPath) : forwardApi(api, request, apiPath)),
    async checkChannels(caller, channels) {
      if (!caller.owned || caller.admin) return;
      const owners = await ledger.ownersOf(channels.map((c) => refOf("channel", c)));
      const hidden = channels.find((_, i) => owners[i] !== caller.user);
      if (hidden !== undefined) throw new ProxyError(404, `No record has the channel ${hidden}`);
    },
    async observe(record) {
      if (!charges || typeof record !== "object" || record === null) return;
      const kind: RecordKind = "quantity" in record ? "batch" : "obfuscated_id" in record ? "generation" : "export";
      await Promise.all(generationsIn(kind, record).map((g) => charges.settle(String(g.id), g.status)));
    },
  };
}
