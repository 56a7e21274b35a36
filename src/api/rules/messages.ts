/**
 * The spec's error messages, word for word (Errors table). The local service answers with
 * them and the client recognises them to tell error kinds apart.
 */
export const MESSAGES = {
  noSubscription: "You don't have an active subscription",
  batchPlan: "Batch generation is not available on your current plan.",
  styleNotFound: "Skybox style does not exist",
  batchNotFound: "Batch not found.",
  batchInProgress: "A batch is already being processed. Please wait for it to complete before submitting a new one.",
  quantity: "Quantity must be a positive integer.",
  batchVariantRequired: "Batch generation with Model 4 styles requires a Standard or Enhanced variant. Select a variant_id and retry.",
  invalidVariant: "Invalid variant_id: variant not found for this generator.",
  /** A batch over the plan's credit cap per batch. */
  batchCap: (quantity: number, cap: number) =>
    `Requested quantity of ${quantity} exceeds your plan limit of ${cap} credits per batch request. Reduce the quantity and retry.`,
  /** A Model 4 batch that costs more credits than remain. */
  model4Credits: (remaining: number, required: number) =>
    `You have ${remaining} credits remaining. This Model 4 batch requires ${required} credits. Reduce the quantity or top up your credits.`,
  model4Overage: "Model 4 batch generations are not available while you are in overage billing.",
  /** A batch that costs more credits than remain. */
  batchCredits: (remaining: number, quantity: number, required: number) =>
    `You have ${remaining} credits remaining. Generating ${quantity} skyboxes requires ${required} credits.`,
  /** A generation past the plan's number of pending generations. */
  pendingLimit: (limit: number) =>
    `You have reached the limit of ${limit} pending generations on your plan. Wait for one to complete and retry.`,
  generationsDisabled: "Skybox generation is temporarily disabled. Please try again later.",
} as const;
