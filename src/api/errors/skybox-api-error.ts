import type { RuleIssue } from "../rules/rule-issue.ts";
import { describeIssue } from "../rules/rule-issue.ts";
import type { ErrorKind } from "./error-kind.ts";

/** What a `SkyboxApiError` is made from: its kind, status and the server's words. */
export interface SkyboxApiErrorInit {
  /** What went wrong, one of the error kinds (`validation`, `rate_limited`, ...). */
  kind: ErrorKind;
  /** HTTP status; 0 when no response was received (network, abort, a rule broken before sending). */
  status: number;
  /** The server's message, or ours for errors raised before or without a response. */
  serverMessage: string;
  method?: string;
  /** Path of the request, without the key. */
  path?: string;
  issues?: RuleIssue[];
  /** Seconds to wait, from Retry-After, for rate_limited and unavailable. */
  retryAfter?: number | null;
  /** The body that came back, when it was parsed (never contains the key we sent). */
  data?: unknown;
  cause?: unknown;
}

/**
 * The one error of the Skybox client. `kind` says what went wrong, `status` what the server
 * answered, `issues` which fields broke which rules. The message names method and path and
 * never contains the API key.
 */
export class SkyboxApiError extends Error {
  override name = "SkyboxApiError" as const;
  readonly kind: ErrorKind;
  readonly status: number;
  readonly serverMessage: string;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly issues: readonly RuleIssue[];
  readonly retryAfter: number | null;
  readonly data: unknown;

  /** Builds the error; its message names the method and path, never the API key. */
  constructor(init: SkyboxApiErrorInit) {
    const where = init.method && init.path ? ` (${init.method} ${init.path}${init.status ? ` → ${init.status}` : ""})` : "";
    super(`${init.serverMessage}${where}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.method = init.method;
    this.path = init.path;
    this.issues = init.issues ?? [];
    this.retryAfter = init.retryAfter ?? null;
    this.data = init.data;
  }

  /** An error for rules broken before a request is sent. */
  static fromIssues(issues: RuleIssue[], method?: string, path?: string): SkyboxApiError {
    return new SkyboxApiError({
      kind: issues[0]?.kind ?? "validation",
      status: 0,
      serverMessage: issues.map(describeIssue).join("; "),
      issues,
      ...(method ? { method } : {}),
      ...(path ? { path } : {}),
    });
  }
}

/** Type guard that also works across realms and bundle copies. */
export function isSkyboxApiError(error: unknown): error is SkyboxApiError {
  return error instanceof SkyboxApiError || (error instanceof Error && error.name === "SkyboxApiError");
}
