import type { Plan } from "../reference.ts";

/** What a plan allows: batch credit cap, Model 4, pending generations, monthly credits. */
export interface PlanLimits {
  /** Maximum credits one batch may cost; null when batches are unavailable. */
  batchCreditCap: number | null;
  /** Model 4 styles and variants (Standard and Business only). */
  model4: boolean;
  /**
   * Pending (not yet complete) generations at once before POST /skybox answers 429. The
   * spec does not give these values; these are ours, documented in the README. Batches
   * bypass the limit.
   */
  pendingGenerations: number;
  /** Credits a new account of this plan starts with (local service). */
  monthlyCredits: number;
}

/** The limits of each plan (the values the spec leaves open are ours, see the client guide). */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { batchCreditCap: null, model4: false, pendingGenerations: 1, monthlyCredits: 10 },
  essential: { batchCreditCap: 3, model4: false, pendingGenerations: 3, monthlyCredits: 100 },
  standard: { batchCreditCap: 3, model4: true, pendingGenerations: 5, monthlyCredits: 300 },
  business: { batchCreditCap: 30, model4: true, pendingGenerations: 10, monthlyCredits: 3000 },
};
