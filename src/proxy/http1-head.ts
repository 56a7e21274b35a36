/**
 * The head of an HTTP/1.1 answer (RFC 9112): its status line and header fields, as an asset
 * host sends them. The asset client reads answers off the socket itself (asset-answer.ts);
 * anything it cannot read for certain is an error, never a guess.
 */

export type RawHeaders = Record<string, string | string[]>;

export interface AnswerHead {
  status: number;
  /** Lower-case names; a repeated field's values in order. */
  headers: RawHeaders;
}

/** Longest head read; an answer whose head is longer is refused. */
export const MAX_HEAD_BYTES = 64 * 1024;

export class MalformedAnswerError extends Error {
  override name = "MalformedAnswerError";
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/;
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/** Where the head in `bytes` ends (just past its empty line), or -1 while it has not. */
export function headEnd(bytes: Buffer): number {
  const at = bytes.indexOf("\r\n\r\n", 0, "latin1");
  return at < 0 ? -1 : at + 4;
}

/** Reads a complete head (its bytes up to, not including, the empty line). */
export function parseHead(head: Buffer): AnswerHead {
  const [statusLine, ...lines] = head.toString("latin1").split("\r\n");
  const status = STATUS_LINE.exec(statusLine ?? "");
  if (!status) throw new MalformedAnswerError("The asset host's answer has no HTTP/1.1 status line");
  const headers: RawHeaders = {};
  for (const line of lines) {
    if (!line) continue;
    const field = FIELD.exec(line);
    // A folded or nameless line (obsolete, and a way to smuggle fields past a reader) is refused.
    if (!field) throw new MalformedAnswerError("The asset host's answer has a malformed header line");
    const name = field[1]!.toLowerCase();
    const known = headers[name];
    headers[name] = known === undefined ? field[2]! : [...(Array.isArray(known) ? known : [known]), field[2]!];
  }
  return { status: Number(status[1]), headers };
}
