import { isBinaryFile } from "../requests/file-input.ts";
import { bytesToBase64 } from "./base64.ts";

/**
 * How a request with files travels: `json` sends files base64-encoded, `multipart` as file
 * parts; `auto` picks multipart when any file is a Blob or bytes.
 */
export type BodyEncoding = "auto" | "json" | "multipart";

export type EncodedBody = { json: Record<string, unknown> } | { body: FormData };

const present = (entries: [string, unknown][]) => entries.filter(([, v]) => v !== undefined && v !== null);

async function toBase64(file: Blob | Uint8Array): Promise<string> {
  return bytesToBase64(file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer()));
}

/** Encodes request parameters as a JSON object or a multipart form. */
export async function encodeBody(params: object, encoding: BodyEncoding = "auto"): Promise<EncodedBody> {
  const entries = present(Object.entries(params));
  const multipart = encoding === "multipart" || (encoding === "auto" && entries.some(([, v]) => isBinaryFile(v)));
  if (!multipart) {
    const json: Record<string, unknown> = {};
    for (const [k, v] of entries) json[k] = isBinaryFile(v) ? await toBase64(v) : v;
    return { json };
  }
  const form = new FormData();
  for (const [k, v] of entries) {
    if (v instanceof Blob) form.append(k, v, v instanceof File ? v.name : `${k}.bin`);
    else if (v instanceof Uint8Array) form.append(k, new Blob([v as Uint8Array<ArrayBuffer>]), `${k}.bin`);
    else form.append(k, String(v));
  }
  return { body: form };
}
