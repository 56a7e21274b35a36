/**
 * Forwarding one allowed API request: the browser's key removed from query and body, the
 * proxy's key added as `x-api-key`, the response passed back with its status and message, its
 * asset URLs learned and rewritten, and any echo of the key scrubbed out.
 */
import { API_PREFIX } from "../../api/protocol/routes.ts";
import { matchApiRoute } from "./allow-list.ts";
import { type Scrubber, stripKeyFromQuery } from "../key-scrubber.ts";
import { apiRequestHeaders, apiResponseHeaders } from "../header-filter.ts";
import type { ResolvedProxyOptions } from "../proxy-options.ts";
import type { Presenter } from "../presenter.ts";
import { ProxyError } from "../proxy-error.ts";
import type { ProxyRequest } from "../proxy-request.ts";
import { readBodyLimited, rewriteApiBody } from "./api-request-body.ts";
import { TextResponse } from "../text-response.ts";
import { upstreamUrl } from "./upstream-address.ts";
import type { UpstreamResponse, UpstreamClient } from "./upstream-client.ts";
import { NO_WEBHOOK_URL, WEBHOOK_URL_FIELD, webhookUrlChoice } from "../webhooks/webhook-url.ts";

export interface ApiContext {
  options: ResolvedProxyOptions;
  upstream: UpstreamClient;
  scrub: Scrubber;
  /** Responses as the browser gets them: asset URLs learned and rewritten, secrets scrubbed. */
  present: Presenter;
}

const decoder = new TextDecoder();

/** Responses of the API are records and pages of them; anything this large is not one. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * `apiPath` is the request's path from `/api/v1` on. A browser's own call is not cut short
 * when the browser leaves (a POST sent cannot be unsent, a response is small, the timeout
 * bounds it, and making the request's signal costs about as much as the rest of a poll's checks);
 * `signal` ends calls the proxy makes on its own while responding to one request.
 */
export async function forwardApi(ctx: ApiContext, request: ProxyRequest, apiPath: string, signal?: AbortSignal): Promise<TextResponse> {
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
    const forward = await rewriteApiBody(
      await readBodyLimited(request, options.maxBodyBytes),
      request.headers.get("content-type"),
      webhookUrl,
    );
    body = forward.body;
    delete headers["content-type"];
    if (forward.contentType) headers["content-type"] = forward.contentType;
  }

  let upstreamResponse: UpstreamResponse;
  try {
    upstreamResponse = await ctx.upstream.send({
      method: request.method,
      url: upstreamUrl(options.upstream, apiPath, query ? `?${query}` : ""),
      headers,
      body,
      signal,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new ProxyError(timedOut ? 504 : 502, timedOut ? "The Skybox API did not answer in time" : "The Skybox API could not be reached");
  }
  return relayResponse(ctx, upstreamResponse);
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

function relayResponse(ctx: ApiContext, upstreamResponse: UpstreamResponse): TextResponse {
  // A redirect would carry x-api-key to wherever it points.
  if (upstreamResponse.status >= 300 && upstreamResponse.status < 400 && upstreamResponse.status !== 304)
    throw new ProxyError(502, "The Skybox API answered with a redirect");
  if (!upstreamResponse.bytes) throw new ProxyError(502, "The Skybox API's response is too large");
  const headers = ctx.scrub.headers(apiResponseHeaders(upstreamResponse.header));
  const empty = upstreamResponse.status === 204 || upstreamResponse.status === 304;
  return new TextResponse(upstreamResponse.status, headers, empty ? null : ctx.present.text(decoder.decode(upstreamResponse.bytes)));
}
