/**
 * `DELETE /imagine/requests/pending` for one user of many: the upstream's route would
 * cancel everyone's, so the proxy cancels the caller's open generations one by one
 * (`DELETE /imagine/requests/{id}`) and responds as the API does: `{ success: true,
 * cancelled }`, or the API's sentence when there was nothing to cancel.
 */
import { pathOf } from "../../api/protocol/routes.ts";
import { jsonResponse, ProxyError } from "../proxy-error.ts";
import type { TextResponse } from "../text-response.ts";
import type { GenerationCharges } from "./generation-charges.ts";
import { recordIn } from "./record-refs.ts";
import { mapLimited, type UpstreamCall } from "./upstream-calls.ts";

const NOTHING_PENDING = "You don't have any pending generations to cancel.";

export async function cancelOwnPending(charges: GenerationCharges, upstream: UpstreamCall, user: string): Promise<TextResponse> {
  const open = await charges.openOf(user);
  const cancelled = await mapLimited(open, 4, async (id) => {
    const result = (await upstream("DELETE", pathOf("cancelGeneration", { id })).catch(() => null)) as { success?: unknown } | null;
    if (result?.success) {
      await charges.settle(id, "abort");
      return true;
    }
    // Not cancellable: it ended (settled by what it became) or is gone (no longer followed).
    const record = await upstream("GET", pathOf("getGeneration", { id })).then(recordIn, (error: unknown) =>
      error instanceof ProxyError && error.status === 404 ? { status: "complete" } : null,
    );
    if (record) await charges.settle(id, record.status);
    return false;
  });
  const count = cancelled.filter(Boolean).length;
  return jsonResponse(count ? { success: true, cancelled: count } : { error: NOTHING_PENDING });
}
