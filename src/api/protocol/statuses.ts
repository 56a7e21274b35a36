/**
 * The statuses of the API's records and which of them end a record: a record in a terminal
 * status changes no more, so a watch stops, a queue forgets it and a pane shows it ended.
 */

/** Statuses shared by generations and exports. */
export const REQUEST_STATUSES = ["pending", "dispatched", "processing", "complete", "abort", "error"] as const;

/** Statuses of a batch; `finalized`, `error` and `abort` end it. */
export const BATCH_STATUSES = ["pending", "dispatched", "processing", "finalized", "error", "abort"] as const;

/** Statuses that end a generation or an export. */
export const REQUEST_TERMINAL = ["complete", "error", "abort"] as const satisfies readonly (typeof REQUEST_STATUSES)[number][];

/** Statuses that end a batch. */
export const BATCH_TERMINAL = ["finalized", "error", "abort"] as const satisfies readonly (typeof BATCH_STATUSES)[number][];

const requestTerminal: ReadonlySet<string> = /* @__PURE__ */ new Set(REQUEST_TERMINAL);
const batchTerminal: ReadonlySet<string> = /* @__PURE__ */ new Set(BATCH_TERMINAL);

/** The status ends a generation or an export. */
export const isRequestTerminal = (status: string): status is (typeof REQUEST_TERMINAL)[number] => requestTerminal.has(status);

/** The status ends a batch. */
export const isBatchTerminal = (status: string): status is (typeof BATCH_TERMINAL)[number] => batchTerminal.has(status);

/** The status ends whatever record carries it (a generation, an export or a batch). */
export const isTerminalStatus = (status: string): boolean => isRequestTerminal(status) || isBatchTerminal(status);
