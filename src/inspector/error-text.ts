import { isSkyboxApiError, type ErrorKind } from "../api/index.ts";

/** An error as the pane shows it: a sentence a person understands, and the server's words. */
export interface PaneError {
  /** What failed, in the pane's words ("Generation failed"). */
  title: string;
  /** What it means and what to do. */
  message: string;
  /** The server's own message (or the client's rule message), kept verbatim. */
  serverMessage: string | null;
  /** The error kind of the API client; "scene" for a failure applying to the scene; "unknown" otherwise. */
  kind: ErrorKind | "scene" | "unknown";
  /** HTTP status, 0 when none. */
  status: number;
}

const SENTENCES: Record<ErrorKind, (retryAfter: number | null) => string> = {
  unauthorized: () => "The Skybox API refused the API key. Check SKYBOX_API_KEY where the proxy runs.",
  subscription_required: () => "This Skybox account has no active subscription.",
  plan_forbidden: () => "Your plan does not include this. Choose another option or upgrade the plan.",
  not_found: () => "It does not exist any more (deleted, or it belongs to another account).",
  conflict: () => "Another batch is still running. Wait for it to finish, then try again.",
  validation: () => "The request was refused because a value is not allowed:",
  insufficient_credits: () => "There are not enough credits left for this.",
  rate_limited: (s) => `Too many requests in a short time. Try again${s ? ` in ${Math.ceil(s)} s` : " in a moment"}.`,
  unavailable: (s) => `The Skybox service is unavailable right now. Try again${s ? ` in ${Math.ceil(s)} s` : " later"}.`,
  network: () => "The Skybox proxy could not be reached. Is the dev server (skyboxProxy) or `babylon-skybox proxy` running?",
  invalid_response: () => "The service answered with something unexpected.",
  aborted: () => "Cancelled.",
  timeout: () => "The service took too long to answer. Try again.",
};

/**
 * Turns anything thrown while talking to the API or applying a skybox into a PaneError:
 * the kind of a SkyboxApiError becomes a sentence, and the server's message is kept.
 * @param error what was thrown
 * @param title what was being done ("Export failed")
 * @returns the error as the pane shows it
 */
export function describeError(error: unknown, title: string): PaneError {
  if (isSkyboxApiError(error)) {
    const issues = error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
    const server = issues.length ? issues.join("; ") : error.serverMessage || null;
    return { title, message: SENTENCES[error.kind](error.retryAfter), serverMessage: server, kind: error.kind, status: error.status };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { title, message: "Something went wrong.", serverMessage: text || null, kind: "unknown", status: 0 };
}

/**
 * A failure of the scene side (loading or prefiltering an environment, building a backdrop).
 * @param error what was thrown
 * @returns the error as the pane shows it
 */
export function describeSceneError(error: unknown): PaneError {
  if (isSkyboxApiError(error)) return describeError(error, "Apply failed");
  const text = error instanceof Error ? error.message : String(error);
  return {
    title: "Apply failed",
    message: "The skybox could not be applied to the scene; the previous one stays.",
    serverMessage: text,
    kind: "scene",
    status: 0,
  };
}

/** A generation or export that ended with status `error` or `abort`. */
export function describeEnded(status: string, serverMessage: string | null | undefined, what: string): PaneError {
  if (status === "abort")
    return {
      title: `${what} cancelled`,
      message: "It was cancelled before it finished.",
      serverMessage: serverMessage || null,
      kind: "aborted",
      status: 0,
    };
  return {
    title: `${what} failed`,
    message: "The service could not finish it. Try again, maybe with another prompt or style.",
    serverMessage: serverMessage || null,
    kind: "unknown",
    status: 0,
  };
}
