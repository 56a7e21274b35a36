import type { GenerateParams } from "../requests/generate-params.ts";
import type { Plan } from "../reference.ts";
import { CREDIT_COSTS, generationCost, generationMode } from "./credits.ts";
import { MESSAGES } from "./messages.ts";
import { PLAN_LIMITS } from "./plans.ts";
import { issue, type RuleIssue } from "./rule-issue.ts";
import type { StyleInfo } from "./style-info.ts";

/** What the batch rules need to know of the account: plan, credits, overage billing. */
export interface BatchAccount {
  plan: Plan;
  credits: number;
  /** Metered/overage billing: Model 4 batches are refused. */
  overage?: boolean;
}

/** What the batch rules check a batch against: the style, the variant and the account, when known. */
export interface BatchContext {
  style?: StyleInfo | null;
  /** Name of the chosen variant (decides the Enhanced price). */
  variantName?: string | null;
  account?: BatchAccount | null;
}

const BATCH_CAP_RULE = "batch-credit-cap";

/** Credits one batch may cost on a plan; null when the plan has no batches. */
export function batchCapFor(plan: Plan): number | null {
  return PLAN_LIMITS[plan].batchCreditCap;
}

/** The largest quantity any batch can have: the highest plan cap spent on the cheapest generations. */
export const MAX_BATCH_QUANTITY = /* @__PURE__ */ Math.floor(
  /* @__PURE__ */ Math.max(...Object.values(PLAN_LIMITS).map((l) => l.batchCreditCap ?? 0)) /
    /* @__PURE__ */ Math.min(...Object.values(CREDIT_COSTS)),
);

const batchPlanIssue = () => issue("quantity", "batch-plan", MESSAGES.batchPlan, "plan_forbidden", 403);

/**
 * The plan's side of a batch, which needs no balance: batches at all (`cap` null), then the
 * per-batch cap on the credits the whole batch costs. The cap issue carries the cap as `limit`.
 * @param quantity generations in the batch
 * @param required credits the whole batch costs
 * @param cap the plan's cap, as `batchCapFor` gives it (or as a refusal named it)
 */
export function checkBatchCap(quantity: number, required: number, cap: number | null): RuleIssue[] {
  if (cap === null) return [batchPlanIssue()];
  if (required <= cap) return [];
  return [{ ...issue("quantity", BATCH_CAP_RULE, MESSAGES.batchCap(quantity, cap), "plan_forbidden"), limit: cap }];
}

/** The per-batch cap a refusal named, read from its structured issue (never from its wording); null when it named none. */
export function batchCapOf(issues: readonly RuleIssue[]): number | null {
  return issues.find((i) => i.rule === BATCH_CAP_RULE && i.limit !== undefined)?.limit ?? null;
}

/** `MESSAGES.batchCap` as a pattern: the one template, with its two numbers as groups. */
const BATCH_CAP_SENTENCE = /* @__PURE__ */ new RegExp(
  `^${MESSAGES.batchCap(111_111, 222_222)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace("111111", "(\\d+)")
    .replace("222222", "(\\d+)")}$`,
);

/**
 * The real service answers an over-cap batch with the spec's sentence and no `issues`: this
 * reads that sentence back into the structured issue the local service and the proxy send,
 * so the client hands every caller the same `batch-credit-cap` issue with its `limit`.
 * @param message the error body's `error` text
 * @returns the issue, or null for any other message
 */
export function batchCapIssueOfMessage(message: string): RuleIssue | null {
  const match = BATCH_CAP_SENTENCE.exec(message.trim());
  if (!match) return null;
  const [quantity, cap] = [Number(match[1]), Number(match[2])];
  return { ...issue("quantity", BATCH_CAP_RULE, MESSAGES.batchCap(quantity, cap), "plan_forbidden"), limit: cap };
}

/** True for a whole number above 0 (a batch's quantity). */
export function isPositiveInteger(v: unknown): v is number {
  const n = typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n > 0;
}

/**
 * The batch rules of the spec, in the order the service checks them: quantity, plan,
 * Model 4 variant, per-batch cap, then credits for the whole batch (before anything is
 * created). Messages are the spec's, word for word.
 */
export function checkBatch(p: GenerateParams & { quantity?: unknown }, ctx: BatchContext = {}): RuleIssue[] {
  if (!isPositiveInteger(p.quantity)) return [issue("quantity", "quantity-positive-integer", MESSAGES.quantity)];
  const quantity = Number(p.quantity);
  const { style, account } = ctx;
  if (account && batchCapFor(account.plan) === null) return [batchPlanIssue()];
  if (!style) return [];
  if (style.model === 4 && generationMode(p) === "generate" && (p.variant_id === undefined || p.variant_id === null))
    return [issue("variant_id", "model4-batch-variant", MESSAGES.batchVariantRequired)];
  if (p.variant_id != null && !style.variantIds.includes(Number(p.variant_id)))
    return [issue("variant_id", "variant-of-style", MESSAGES.invalidVariant)];
  if (!account) return [];
  if (style.model === 4 && !PLAN_LIMITS[account.plan].model4)
    return [issue("skybox_style_id", "model4-plan", MESSAGES.batchPlan, "plan_forbidden", 403)];
  return checkBatchCost(quantity, style, ctx.variantName ?? null, account, generationMode(p));
}

function checkBatchCost(
  quantity: number,
  style: StyleInfo,
  variantName: string | null,
  account: BatchAccount,
  mode: ReturnType<typeof generationMode>,
): RuleIssue[] {
  const required = quantity * generationCost(style, mode, variantName);
  const capped = checkBatchCap(quantity, required, batchCapFor(account.plan));
  if (capped.length) return capped;
  if (style.model === 4 && account.overage) return [issue("skybox_style_id", "model4-overage", MESSAGES.model4Overage, "plan_forbidden")];
  if (required > account.credits) {
    const message =
      style.model === 4 ? MESSAGES.model4Credits(account.credits, required) : MESSAGES.batchCredits(account.credits, quantity, required);
    return [issue("quantity", "batch-credits", message, "insufficient_credits")];
  }
  return [];
}
