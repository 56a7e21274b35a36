import * as z from "zod/mini";
import type { ErrorKind } from "../errors/error-kind.ts";
import type { RuleIssue } from "../rules/rule-issue.ts";
import { batchCapIssueOfMessage } from "../rules/batch-rules.ts";
import { errorKindOf } from "../errors/error-kind.ts";
import { messageFromBody, redact } from "../errors/error-message.ts";
import { ruleSentence } from "../errors/rule-sentence.ts";
import { SkyboxApiError } from "../errors/skybox-api-error.ts";
import { issuesOf } from "../protocol/error-envelope.ts";
import { endpointOf, type ApiMethod, type RouteName, type RouteParams } from "../protocol/routes.ts";
import type { CallOptions, SkyboxClientOptions } from "./client-options.ts";
import { HttpStatusError, RequestTimeoutError, retryingFetch, retryPolicy } from "./retrying-fetch.ts";
import type { EncodedBody } from "./body-encoding.ts";

type Query = Record<string, string | number | boolean | undefined | null>;

export interface SendOptions<S extends z.ZodMiniType> extends CallOptions {
  schema: S;
  query?: Query;
  body?: EncodedBody;
}

/** The path parameters a route needs: none, or each of its `{name}`s. */
export type ParamsOption<N extends RouteName> = keyof RouteParams<N> extends never ? { params?: never } : { params: RouteParams<N> };

/** Sends one request to a route of the API and returns its parsed, schema-checked body. */
export type Send = <N extends RouteName, S extends z.ZodMiniType>(
  route: N,
  options: SendOptions<S> & ParamsOption<N>,
) => Promise<z.output<S>>;

function retryAfterSeconds(response: Response | undefined): number | null {
  const value = response?.headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** The URL with `query` as its search part (the one it had is replaced), as ky built it. */
function withQuery(url: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search ? url.replace(/(?:\?.*?)?(?=#|$)/, `?${search}`) : url;
}

/** Creates the transport: the key, headers, timeout and retries of every call. */
export function createTransport(options: SkyboxClientOptions): Send {
  const base = options.baseUrl.replace(/\/+$/, "");
  const secrets = [options.apiKey];
  const retry = retryPolicy(options.retry);
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = {
    accept: "application/json",
    ...options.headers,
    ...(options.apiKey && options.apiKeyIn !== "query" ? { "x-api-key": options.apiKey } : {}),
  };

  // A server may echo what it was sent: the key is scrubbed from messages and bodies alike.
  const fail = (init: ConstructorParameters<typeof SkyboxApiError>[0]) =>
    new SkyboxApiError({
      ...init,
      serverMessage: redact(init.serverMessage, secrets),
      data: init.data === undefined ? undefined : JSON.parse(redact(JSON.stringify(init.data), secrets)),
    });

  return async (route, { schema, query, body, signal, timeout, params }) => {
    const searchParams: Record<string, string> = {};
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) searchParams[k] = String(v);
    if (options.apiKey && options.apiKeyIn === "query") searchParams.api_key = options.apiKey;
    const where = endpointOf(route, (params ?? {}) as RouteParams<typeof route>);
    const url = withQuery(`${base}${where.path}`, searchParams);
    const init = requestInit(where.method, headers, body);
    let raw: unknown;
    try {
      const response = await retryingFetch({
        fetch: fetchFn,
        request: (attemptSignal) => new Request(url, { ...init, signal: attemptSignal }),
        method: where.method,
        timeout: timeout || (options.timeout ?? 30_000),
        retry,
        signal,
      });
      const text = await response.text();
      raw = text ? JSON.parse(text) : null;
    } catch (error) {
      throw await toApiError(error, where, fail);
    }
    // The rule sentences name what a field must be here too: no zod locale is bundled.
    const parsed = z.safeParse(schema, raw, { error: ruleSentence });
    if (parsed.success) return parsed.data;
    throw fail({
      kind: "invalid_response",
      status: 200,
      serverMessage: `Unexpected response: ${describeSchemaFailure(parsed.error)}`,
      data: raw,
      ...where,
    });
  };
}

/** Method, headers and body of a request; a JSON body gets its content type unless one was given. */
function requestInit(method: ApiMethod, headers: Record<string, string>, body: EncodedBody | undefined): RequestInit {
  if (body && "json" in body) {
    const withType = new Headers(headers);
    if (!withType.has("content-type")) withType.set("content-type", "application/json");
    return { method, headers: withType, body: JSON.stringify(body.json) };
  }
  return { method, headers, ...(body ? { body: body.body } : {}) };
}

/**
 * The most specific issue of a schema failure, as `field: message`. A union (a wrapped or
 * bare record) fails as a whole; its branch that got furthest names the real field.
 */
export function describeSchemaFailure(error: z.core.$ZodError): string {
  const deepest = (issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): { path: PropertyKey[]; message: string } => {
    let best = { path: prefix, message: issues[0]?.message ?? "invalid" };
    for (const i of issues) {
      const path = [...prefix, ...i.path];
      const candidate = i.code === "invalid_union" && i.errors.length ? deepestOf(i.errors, path) : { path, message: i.message };
      if (candidate.path.length > best.path.length) best = candidate;
    }
    return best;
  };
  const deepestOf = (branches: z.core.$ZodIssue[][], prefix: PropertyKey[]) =>
    branches.map((b) => deepest(b, prefix)).reduce((a, b) => (b.path.length > a.path.length ? b : a));
  const found = deepest(error.issues, []);
  return `${found.path.length ? found.path.map(String).join(".") : "(body)"}: ${found.message}`;
}

/**
 * Field-level issues a server sent (the local service and the proxy send `issues`); the real
 * service sends none, but its over-cap batch sentence is read back into the same issue.
 */
function issuesFromBody(body: unknown, message: string, kind: ErrorKind): RuleIssue[] {
  const sent = issuesOf(body).map((i) => ({
    path: i.path,
    rule: i.rule,
    message: i.message,
    kind,
    ...(i.limit === undefined ? {} : { limit: i.limit }),
  }));
  const recognised = sent.length ? null : batchCapIssueOfMessage(message);
  return recognised ? [recognised] : sent;
}

/** An error answer's body: JSON when it parses, else its text (or nothing when unreadable). */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

async function toApiError(
  error: unknown,
  where: { method: ApiMethod; path: string },
  fail: (i: ConstructorParameters<typeof SkyboxApiError>[0]) => SkyboxApiError,
): Promise<SkyboxApiError> {
  if (error instanceof HttpStatusError) {
    const { status } = error.response;
    const data = await errorBody(error.response);
    const message = messageFromBody(data) ?? `${status} ${error.response.statusText || "error"}`;
    const kind = errorKindOf(status, message);
    return fail({
      kind,
      status,
      serverMessage: message,
      data,
      retryAfter: retryAfterSeconds(error.response),
      issues: issuesFromBody(data, message, kind),
      ...where,
    });
  }
  // A timeout error holds the Request (and with it the key): it is not kept as the cause.
  if (error instanceof RequestTimeoutError) return fail({ kind: "timeout", status: 0, serverMessage: "The request timed out", ...where });
  if (error instanceof Error && (error.name === "AbortError" || error.name === "CanceledError"))
    return fail({ kind: "aborted", status: 0, serverMessage: "The request was aborted", cause: error, ...where });
  if (error instanceof SyntaxError)
    return fail({ kind: "invalid_response", status: 200, serverMessage: "The response is not JSON", cause: error, ...where });
  // fetch rejects with a TypeError when the network fails (retryingFetch passes it on as it is).
  if (error instanceof TypeError)
    return fail({ kind: "network", status: 0, serverMessage: `Network error: ${error.message}`, cause: error.cause, ...where });
  return fail({
    kind: "network",
    status: 0,
    serverMessage: error instanceof Error ? error.message : String(error),
    cause: error,
    ...where,
  });
}
