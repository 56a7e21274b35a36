/**
 * Reading a request body within a size limit, and re-encoding an API request's body
 * without any key field, its `webhook_url` the one the proxy chooses (webhook-url.ts).
 * Bodies are JSON, multipart or URL-encoded forms, as the spec allows; anything else is
 * refused.
 */
import { ProxyError } from "./ProxyError.ts";
import { isKeyName, stripKeyFromObject } from "./key-scrubber.ts";
import { WEBHOOK_URL_FIELD, type WebhookUrlChoice } from "./webhook-url.ts";

/** The whole body, or a 413 as soon as it passes `maxBytes` (announced or streamed). */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
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
  for (const c of chunks) (out.set(c, at), (at += c.byteLength));
  return out;
}

export interface ForwardBody {
  body: BodyInit | undefined;
  /** The content type to send; undefined for FormData, whose boundary fetch writes. */
  contentType: string | undefined;
}

/**
 * The body to forward: key fields removed, and the browser's `webhook_url` replaced by what
 * `webhookUrl` chooses (nothing when it chooses null).
 */
export async function rewriteApiBody(bytes: Uint8Array, contentType: string | null, webhookUrl: WebhookUrlChoice): Promise<ForwardBody> {
  if (bytes.byteLength === 0) return { body: undefined, contentType: undefined };
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return rewriteJson(bytes, webhookUrl);
  if (type === "multipart/form-data") return rewriteMultipart(bytes, contentType!, webhookUrl);
  if (type === "application/x-www-form-urlencoded") return rewriteUrlEncoded(bytes, webhookUrl);
  throw new ProxyError(415, "The request body must be JSON or form data");
}

function rewriteJson(bytes: Uint8Array, webhookUrl: WebhookUrlChoice): ForwardBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ProxyError(400, "The request body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ProxyError(400, "The JSON body must be an object");
  const { [WEBHOOK_URL_FIELD]: sent, ...body } = stripKeyFromObject(parsed as Record<string, unknown>);
  const hook = webhookUrl(sent);
  if (hook) body[WEBHOOK_URL_FIELD] = hook;
  return { body: JSON.stringify(body), contentType: "application/json" };
}

async function rewriteMultipart(bytes: Uint8Array, contentType: string, webhookUrl: WebhookUrlChoice): Promise<ForwardBody> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new ProxyError(400, "The multipart body could not be read");
  }
  const out = new FormData();
  for (const [name, value] of form) {
    if (isKeyName(name) || name === WEBHOOK_URL_FIELD) continue;
    if (typeof value === "string") out.append(name, value);
    else out.append(name, value, value.name);
  }
  const hook = webhookUrl(form.get(WEBHOOK_URL_FIELD));
  if (hook) out.set(WEBHOOK_URL_FIELD, hook);
  return { body: out, contentType: undefined };
}

function rewriteUrlEncoded(bytes: Uint8Array, webhookUrl: WebhookUrlChoice): ForwardBody {
  const params = new URLSearchParams(new TextDecoder().decode(bytes));
  const out = new URLSearchParams();
  for (const [k, v] of params) if (!isKeyName(k) && k !== WEBHOOK_URL_FIELD) out.append(k, v);
  const hook = webhookUrl(params.get(WEBHOOK_URL_FIELD));
  if (hook) out.set(WEBHOOK_URL_FIELD, hook);
  return { body: out.toString(), contentType: "application/x-www-form-urlencoded" };
}
