import { BodyFormatError, bodyKindOf, isFilePart, readFormEntries, readJsonObject } from "../../api/protocol/request-body.ts";
import { HttpError } from "./http-error.ts";

/** Largest accepted body: images travel in it (base64 or multipart). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * A request body as plain fields: JSON, multipart (files become bytes) or URL-encoded, read
 * as the real service reads them (src/api/protocol/request-body.ts). A body without a form
 * type is read as JSON, as Laravel does. One that does not parse is a 400 naming the
 * problem, never a crash.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type");
  const bytes = new Uint8Array(await request.arrayBuffer());
  try {
    if (bodyKindOf(type) === "multipart" || bodyKindOf(type) === "urlencoded") {
      const out: Record<string, unknown> = {};
      for (const [key, value] of readFormEntries(bytes, type!)) out[key] = isFilePart(value) ? value.bytes : value;
      return out;
    }
    return new TextDecoder().decode(bytes).trim() ? readJsonObject(bytes) : {};
  } catch (error) {
    if (error instanceof BodyFormatError) throw new HttpError(400, error.message);
    throw error;
  }
}
