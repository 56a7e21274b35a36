/**
 * The proxy owns `webhook_url`. The upstream POSTs signed records to whatever address a
 * request names, so a browser that could name one would point the upstream at an address
 * only the server side reaches (`http://127.0.0.1:<port>/internal-admin`). A value the
 * browser sends is therefore dropped, wherever it travels, and the proxy's own receiver is
 * named instead (or none); only addresses the server's configuration lists pass through.
 */

/** The field, in bodies and queries alike. */
export const WEBHOOK_URL_FIELD = "webhook_url";

/** Chooses the `webhook_url` forwarded, given the one a browser sent (if any). */
export type WebhookUrlChoice = (sent: unknown) => string | null;

/**
 * @param own the proxy's receiver, or null when it adds none
 * @param allowed normalised URLs a browser may name (`allowedWebhookUrls`)
 * @returns the browser's value when listed, else `own`
 */
export function webhookUrlChoice(own: string | null, allowed: ReadonlySet<string>): WebhookUrlChoice {
  return (sent) => (typeof sent === "string" && allowed.has(normalised(sent)) ? sent : own);
}

/** The same choice for a request that starts no work: nothing is forwarded. */
export const NO_WEBHOOK_URL: WebhookUrlChoice = () => null;

function normalised(url: string): string {
  try {
    return new URL(url.trim()).href;
  } catch {
    return "";
  }
}
