/**
 * Forwarding one allowed API request: the browser's key removed from query and body, the
 * proxy's key added as `x-api-key`, the answer passed back with its status and message, its
 * asset URLs learned and rewritten, and any echo of the key scrubbed out.
 */
import { API_PREFIX } from "../api/protocol/routes.ts";
import { matchApiRoute } from "./allow-list.ts";
import { type Scrubber, stripKeyFromQuery } from "./key-scrubber.ts";
import { apiRequestHeaders, apiResponseHeaders } from "./header-filter.ts";
import type { ResolvedProxyOptions } from "./options.ts";
import type { Presenter } from "./presenter.ts";
import { ProxyError } from "./ProxyError.ts";
import type { ProxyRequest } from "./proxy-request.ts";
import { readBodyLimited, rewriteApiBody } from "./request-body.ts";
import { TextAnswer } from "./text-answer.ts";
import { upstreamUrl } from "./upstream.ts";
import type { UpstreamAnswer, UpstreamClient } from "./upstream-client.ts";
import { NO_WEBHOOK_URL, WEBHOOK_URL_FIELD, webhookUrlChoice } from "./webhook-url.ts";

export interface ApiContext {
  options: ResolvedProxyOptions;
  upstream: UpstreamClient;
  scrub: Scrubber;
  /** Answers as the browser gets them: asset URLs learned and rewritten, secrets scrubbed. */
  present: Presenter;
}

const decoder = new TextDecoder();

/** Answers of the API are records and pages of them; anything this large is not one. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * `apiPath` is the request's path from `/api/v1` on. A browser's own call is not cut short
 * when the browser leaves (a POST sent cannot be unsent, an answer is small, the timeout
 * bounds it, and making the request's signal costs about as much as the rest of a poll's checks);
 * `signal` ends calls the proxy makes on its own while answering one request.
 */
export async function forwardApi(ctx: ApiContext, request: ProxyRequest, apiPath: string, signal?: AbortSignal): Promise<TextAnswer> {
  const { options } = ctx;
  const match = matchApiRoute(request.method, apiPath.slice(API_PREFIX.length));
  if (!match) throw new ProxyError(404, "Not a route of the Skybox API");
  if ("allowedMethods" in match) throw new ProxyError(405, "Method not allowed on this route", { allow: match.allowedMethods.join(", ") });

  const query = forwardedQuery(request.url);
  const headers = apiRequestHeaders(request.headers);
  headers["x-api-key"] = options.apiKey;
  let body: string | Uint8Array | undefined;
  if (request.method === "POST") {
    const webhookBase = options.webhookBase();
    const own = webhookBase ? `${webhookBase}${options.basePath}/webhook` : null;
    const webhookUrl = match.route.startsWork ? webhookUrlChoice(own, options.allowedWebhookUrls) : NO_WEBHOOK_URL;
    const forward = await rewriteApiBody(await readBodyLimited(request, options.maxBodyBytes), request.headers.get("content-type"), webhookUrl);
    body = forward.body;
    delete headers["content-type"];
    if (forward.contentType) headers["content-type"] = forward.contentType;
  }

  let answer: UpstreamAnswer;
  try {
    answer = await ctx.upstream.send({
      method: request.method,
      url: upstreamUrl(options.upstream, apiPath, query ? `?${query}` : ""),
      headers,
      body,
      signal,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new ProxyError(timedOut ? 504 : 502, timedOut ? "The Skybox API did not answer in time" : "The Skybox API could not be reached");
  }
  return relayAnswer(ctx, answer);
}

/** The request's query without key fields and webhook_url ("" without a query: most polls have none, and need no parsing). */
function forwardedQuery(url: string): string {
  const start = url.indexOf("?");
  if (start < 0) return "";
  const end = url.indexOf("#", start);
  const params = stripKeyFromQuery(new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end)));
  // The proxy owns webhook_url (webhook-url.ts): a body may carry the one it chooses, a query none.
  params.delete(WEBHOOK_URL_FIELD);
  return params.toString();
}

function relayAnswer(ctx: ApiContext, answer: UpstreamAnswer): TextAnswer {
  // A redirect would carry x-api-key to wherever it points.
  if (answer.status >= 300 && answer.status < 400 && answer.status !== 304) throw new ProxyError(502, "The Skybox API answered with a redirect");
  if (!answer.bytes) throw new ProxyError(502, "The Skybox API's answer is too large");
  const headers = ctx.scrub.headers(apiResponseHeaders(answer.header));
  const empty = answer.status === 204 || answer.status === 304;
  return new TextAnswer(answer.status, headers, empty ? null : ctx.present.text(decoder.decode(answer.bytes)));
}
