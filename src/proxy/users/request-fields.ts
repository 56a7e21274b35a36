/**
 * The fields of an API request as text, for the checks made before it is forwarded (which
 * records it names, what it costs): its body, JSON or a form as the spec allows, and its
 * query, since a service may read a field from either. A file part counts as present. A
 * body that cannot be read gives no fields: forwarding it fails with its own 400.
 */
export type RequestFields = ReadonlyMap<string, readonly string[]>;

export async function requestFields(bytes: Uint8Array, contentType: string | null, query: URLSearchParams): Promise<RequestFields> {
  const fields = new Map<string, string[]>();
  const add = (name: string, value: unknown) => {
    if (value === null || value === undefined) return;
    const text = typeof value === "object" ? "(file)" : typeof value === "string" ? value : JSON.stringify(value);
    fields.set(name, [...(fields.get(name) ?? []), text]);
  };
  for (const [name, value] of await bodyEntries(bytes, contentType)) add(name, value);
  for (const [name, value] of query) add(name, value);
  return fields;
}

/** The first value of a field, body before query. */
export const fieldOf = (fields: RequestFields, name: string): string | undefined => fields.get(name)?.[0];

async function bodyEntries(bytes: Uint8Array, contentType: string | null): Promise<Iterable<[string, unknown]>> {
  if (bytes.byteLength === 0) return [];
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  try {
    if (type === "application/json" || type.endsWith("+json")) {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? Object.entries(parsed) : [];
    }
    if (type === "multipart/form-data")
      return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType! } }).formData();
    if (type === "application/x-www-form-urlencoded") return new URLSearchParams(new TextDecoder().decode(bytes));
  } catch {
    // Unreadable: forwarding refuses it.
  }
  return [];
}
