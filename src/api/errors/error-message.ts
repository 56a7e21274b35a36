/**
 * The server's message from whatever body shape came back: `{ error }`, `{ message }`,
 * `{ error: { message } }`, Laravel's `{ errors: { field: [..] } }`, or plain text.
 */
export function messageFromBody(body: unknown): string | null {
  if (body == null) return null;
  if (typeof body === "string") return body.trim().slice(0, 500) || null;
  if (typeof body === "number" || typeof body === "boolean") return String(body);
  if (typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  for (const key of ["error", "message", "detail", "msg"]) {
    const v = b[key];
    if (typeof v === "string" && v.trim()) return v.trim();
    if (v && typeof v === "object") {
      const inner = messageFromBody(v);
      if (inner) return inner;
    }
  }
  if (b.errors && typeof b.errors === "object") {
    const lines = Object.entries(b.errors as Record<string, unknown>).map(
      ([field, v]) => `${field}: ${Array.isArray(v) ? v.join(" ") : String(v)}`,
    );
    if (lines.length) return lines.join("; ");
  }
  return null;
}

/** Removes an API key from text (URLs with `api_key=`, the key itself). */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(/([?&]api_key=)[^&#\s]*/gi, "$1[redacted]");
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}
