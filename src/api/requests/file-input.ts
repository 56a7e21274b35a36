import * as z from "zod/mini";

/**
 * An image sent with a request: a `Blob`/`File` or bytes (sent as a multipart part), or a
 * base64 string, optionally a `data:` URL (sent in a JSON body). The real service accepts
 * both encodings; the caller picks per call.
 */
export type FileInput = Blob | Uint8Array | string;

const base64 = /* @__PURE__ */ z.string().check(
  z.minLength(1),
  z.regex(/^(data:[\w.+-]+\/[\w.+-]+;base64,)?[A-Za-z0-9+/=\s]+$/, {
    error: "must be base64 (optionally a data: URL) or an uploaded file",
  }),
);

/** An image field of a request: a `Blob`, bytes, or a base64 string. */
export const FileField = z.union([z.instanceof(Blob), z.instanceof(Uint8Array), base64]);

/** True when the value must travel as a multipart file part. */
export function isBinaryFile(value: unknown): value is Blob | Uint8Array {
  return value instanceof Blob || value instanceof Uint8Array;
}
