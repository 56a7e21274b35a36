/**
 * Reading a request body within a size limit, and re-encoding an API request's body
 * without any key field, its `webhook_url` the one the proxy chooses (webhook-url.ts).
 * Bodies are JSON, multipart or URL-encoded forms, as the spec allows; anything else is
 * refused.
 */
import { BodyFormatError, bodyKindOf, readFormEntries, readJsonObject, type FormValue } from "../../api/protocol/request-body.ts";
import { ProxyError } from "../proxy-error.ts";
import type { ProxyRequest } from "../proxy-request.ts";
import { isKeyName, stripKeyFromObject } from "../key-scrubber.ts";
import { WEBHOOK_URL_FIELD, type WebhookUrlChoice } from "../webhooks/webhook-url.ts";

/** The whole body, or a 413 as soon as it passes `maxBytes` (announced or streamed). */
export async function readBodyLimited(request: ProxyRequest, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new ProxyError(413, `The request body is larger than ${maxBytes} bytes`);
  if (Number(request.headers.get("content-length")) > maxBytes) throw tooLarge();
  // Released, not cancelled: cancelling would tear down the socket before the 413 is written.
  const bytes = await readStreamLimited(request.body, maxBytes, "release");
  if (!bytes) throw tooLarge();
  return bytes;
}

/** All bytes of a stream, or null once it passes `maxBytes` (the stream then cancelled or left unread). */
export async function readStreamLimited(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  overflow: "cancel" | "release" = "cancel",
): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      if (overflow === "cancel") await reader.cancel().catch(() => {});
      else reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export interface ForwardBody {
  body: string | Uint8Array | undefined;
  /** The content type to send (a multipart one with its boundary); undefined without a body. */
  contentType: string | undefined;
}

/**
 * The body to forward: key fields removed, and the browser's `webhook_url` replaced by what
 * `webhookUrl` chooses (nothing when it chooses null). Forms are read as the real service
 * reads them (any client's multipart, src/api/protocol/request-body.ts) and written anew.
 */
export async function rewriteApiBody(bytes: Uint8Array, contentType: string | null, webhookUrl: WebhookUrlChoice): Promise<ForwardBody> {
  if (bytes.byteLength === 0) return { body: undefined, contentType: undefined };
  const kind = bodyKindOf(contentType);
  if (!kind) throw new ProxyError(415, "The request body must be JSON or form data");
  try {
    return kind === "json" ? rewriteJson(bytes, webhookUrl) : rewriteForm(readFormEntries(bytes, contentType!), kind, webhookUrl);
  } catch (error) {
    if (error instanceof BodyFormatError) throw new ProxyError(400, error.message);
    throw error;
  }
}

function rewriteJson(bytes: Uint8Array, webhookUrl: WebhookUrlChoice): ForwardBody {
  const { [WEBHOOK_URL_FIELD]: sent, ...body } = stripKeyFromObject(readJsonObject(bytes));
  const hook = webhookUrl(sent);
  if (hook) body[WEBHOOK_URL_FIELD] = hook;
  return { body: JSON.stringify(body), contentType: "application/json" };
}

async function rewriteForm(
  entries: [string, FormValue][],
  kind: "multipart" | "urlencoded",
  webhookUrl: WebhookUrlChoice,
): Promise<ForwardBody> {
  const hook = webhookUrl(entries.find(([name]) => name === WEBHOOK_URL_FIELD)?.[1]);
  const kept = entries.filter(([name]) => !isKeyName(name) && name !== WEBHOOK_URL_FIELD);
  if (hook) kept.push([WEBHOOK_URL_FIELD, hook]);
  if (kind === "urlencoded" && kept.every(([, v]) => typeof v === "string")) {
    return { body: new URLSearchParams(kept as [string, string][]).toString(), contentType: "application/x-www-form-urlencoded" };
  }
  const out = new FormData();
  for (const [name, value] of kept) {
    if (typeof value === "string") out.append(name, value);
    else out.append(name, new Blob([value.bytes as Uint8Array<ArrayBuffer>], { type: value.type }), value.filename);
  }
  // Encoded as fetch would send it: the bytes and the boundary their content type names.
  const encoded = new Response(out);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}
