/**
 * Request bodies byte for byte as the client libraries of the published Skybox clients write
 * them. Each writer follows its library's encoder (named on it); none of their code is
 * copied. A field is text or a file; files carry a file name.
 */
import { randomBytes, randomUUID } from "node:crypto";

export type Field = [name: string, value: string | { bytes: Uint8Array; filename: string; type?: string }];

export interface WireBody {
  contentType: string;
  body: Uint8Array;
}

const CRLF = "\r\n";

function multipart(boundary: string, parts: { headers: string[]; content: Uint8Array }[], contentType: string): WireBody {
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    chunks.push(Buffer.from(`${i ? CRLF : ""}--${boundary}${CRLF}${part.headers.join(CRLF)}${CRLF}${CRLF}`), Buffer.from(part.content));
  });
  chunks.push(Buffer.from(`${CRLF}--${boundary}--${CRLF}`));
  return { contentType, body: new Uint8Array(Buffer.concat(chunks)) };
}

const text = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

/**
 * .NET `System.Net.Http.MultipartFormDataContent` (BlockadeLabs-SDK-DotNet 2.0.0): a GUID
 * boundary, quoted in the content type; part names and file names unquoted (the
 * `ContentDispositionHeaderValue` writes a token bare), `filename*` beside `filename`;
 * `StringContent` parts carry `text/plain; charset=utf-8`, `ByteArrayContent` parts no type.
 */
export function dotnetMultipart(fields: Field[]): WireBody {
  const boundary = randomUUID();
  const parts = fields.map(([name, value]) =>
    typeof value === "string"
      ? { headers: ["Content-Type: text/plain; charset=utf-8", `Content-Disposition: form-data; name=${name}`], content: text(value) }
      : {
          headers: [`Content-Disposition: form-data; name=${name}; filename=${value.filename}; filename*=utf-8''${value.filename}`],
          content: value.bytes,
        },
  );
  return multipart(boundary, parts, `multipart/form-data; boundary="${boundary}"`);
}

/**
 * Unity's `WWWForm` as `UnityWebRequest.Post` sends it (com.rest.blockadelabs 2.0.0 and the
 * official Unity SDK 2.0.2): URL-encoded (`+` for spaces) when there is no file; otherwise
 * multipart with a 40-character boundary, `Content-Type: text/plain; charset="utf-8"` on text
 * parts and the lower-case `Content-disposition` header.
 */
export function unityWwwForm(fields: Field[]): WireBody {
  if (fields.every(([, v]) => typeof v === "string")) {
    const body = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v as string).replace(/%20/g, "+")}`).join("&");
    return { contentType: "application/x-www-form-urlencoded", body: text(body) };
  }
  const boundary = randomBytes(20).toString("hex");
  const parts = fields.map(([name, value]) =>
    typeof value === "string"
      ? { headers: ['Content-Type: text/plain; charset="utf-8"', `Content-disposition: form-data; name="${name}"`], content: text(value) }
      : {
          headers: [
            `Content-Type: ${value.type ?? "application/octet-stream"}`,
            `Content-disposition: form-data; name="${name}"; filename="${value.filename}"`,
          ],
          content: value.bytes,
        },
  );
  return multipart(boundary, parts, `multipart/form-data; boundary=${boundary}`);
}

/** The common shape: quoted names, a file's `Content-Type` after its disposition (`fileType` when the caller gave none). */
function quotedMultipart(boundary: string, fields: Field[], fileType: string): WireBody {
  const parts = fields.map(([name, value]) =>
    typeof value === "string"
      ? { headers: [`Content-Disposition: form-data; name="${name}"`], content: text(value) }
      : {
          headers: [
            `Content-Disposition: form-data; name="${name}"; filename="${value.filename}"`,
            `Content-Type: ${value.type ?? fileType}`,
          ],
          content: value.bytes,
        },
  );
  return multipart(boundary, parts, `multipart/form-data; boundary=${boundary}`);
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Node's `form-data` 4 package, which axios posts for the official Node SDK 1.1.7: 26 dashes and 24 hex digits. */
export const nodeFormData = (fields: Field[]) =>
  quotedMultipart(`--------------------------${hex(12)}`, fields, "application/octet-stream");

/** Python `requests` (`files=`), encoded by urllib3's `encode_multipart_formdata`: 32 hex digits, a type guessed from the file name. */
export const pythonRequests = (fields: Field[]) => quotedMultipart(hex(16), fields, "image/png");

/** `curl -F name=value -F file=@x.png`: 24 dashes and 16 hex digits. */
export const curlForm = (fields: Field[]) => quotedMultipart(`------------------------${hex(8)}`, fields, "image/png");

/** A body as fetch sends it, with the library's own content type. */
export const asInit = (wire: WireBody, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { ...headers, "content-type": wire.contentType },
  body: wire.body as Uint8Array<ArrayBuffer>,
});
