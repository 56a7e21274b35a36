import type { ApiContext } from "../upstream/api-forward.ts";
import type { CreditPrices } from "./credit-prices.ts";
import type { GenerationCharges } from "./generation-charges.ts";
import type { OwnershipLedger } from "./ownership-ledger.ts";

/** What responding for a caller needs: forwarding, the ledger, and the credits (null when neither users nor a cap are configured). */
export interface OwnedContext {
  api: ApiContext;
  ledger: OwnershipLedger;
  charges: GenerationCharges | null;
  prices: CreditPrices;
}
