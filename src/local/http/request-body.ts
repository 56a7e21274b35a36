import { HttpError } from "./http-error.ts";

/** Largest accepted body: images travel in it (base64 or multipart). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * A POST body as plain fields: JSON, multipart (files become bytes) or urlencoded. A body
 * that does not parse is a 400 naming the problem, never a crash.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new HttpError(400, "The request body is not valid form data");
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of form.entries())
      out[key] = typeof value === "string" ? value : new Uint8Array(await value.arrayBuffer());
    return out;
  }
  const text = await request.text();
  if (!text.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new HttpError(400, "The request body must be a JSON object");
  return json as Record<string, unknown>;
}
