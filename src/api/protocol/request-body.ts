/**
 * How the API's request bodies read (spec "Endpoints": JSON or form data), the way the real
 * service reads them: a JSON object, a URL-encoded form, or a multipart form as every
 * mainstream client library writes it (.NET's unquoted part names and quoted boundary,
 * UnityWebRequest's `Content-disposition`, Node's form-data, Python requests, curl). The local
 * service takes its fields from them; the proxy re-encodes them without a key. Browser-safe,
 * but only Node code reads request bodies, so it is not part of the package's index.
 */
import { getMultipartBoundary, parseMultipart } from "@remix-run/multipart-parser";

/** A file part of a multipart form. */
export interface FilePart {
  bytes: Uint8Array;
  /** As the client named it (may be empty). */
  filename: string;
  /** Its media type; `application/octet-stream` when the client gave none. */
  type: string;
}

/** A form field: text, or a file. */
export type FormValue = string | FilePart;

export type BodyKind = "json" | "multipart" | "urlencoded";

/** A body that does not read as its content type says; the message says why, for a 400. */
export class BodyFormatError extends Error {
  override name = "BodyFormatError";
}

export const isFilePart = (value: unknown): value is FilePart =>
  typeof value === "object" && value !== null && (value as FilePart).bytes instanceof Uint8Array;

/** The kind of body a content type announces; null for none or another type. */
export function bodyKindOf(contentType: string | null): BodyKind | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "multipart/form-data") return "multipart";
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  return null;
}

/** A JSON body, which must be an object. */
export function readJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BodyFormatError("The request body is not valid JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new BodyFormatError("The request body must be a JSON object");
  return json as Record<string, unknown>;
}

/** The fields of a URL-encoded or multipart body, in order (a repeated name appears twice). */
export function readFormEntries(bytes: Uint8Array, contentType: string): [string, FormValue][] {
  if (bodyKindOf(contentType) === "urlencoded") return [...new URLSearchParams(new TextDecoder().decode(bytes))];
  const boundary = getMultipartBoundary(contentType);
  if (!boundary) throw new BodyFormatError("The multipart body has no boundary in its content type");
  const entries: [string, FormValue][] = [];
  try {
    // The caller has bounded the body already; the parser's own limits (2 MB a file) would refuse images.
    const limits = { maxFileSize: bytes.byteLength + 1, maxTotalSize: bytes.byteLength + 1 };
    for (const part of parseMultipart(bytes, { boundary, ...limits })) {
      if (!part.name) continue;
      entries.push([
        part.name,
        part.filename !== undefined
          ? { bytes: part.bytes, filename: part.filename, type: part.mediaType ?? "application/octet-stream" }
          : part.text,
      ]);
    }
  } catch (error) {
    throw new BodyFormatError(`The request body is not valid form data (${(error as Error).message})`);
  }
  return entries;
}
