import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { base64ToBytes } from "../../api/client/base64.ts";
import { issue } from "../../api/rules/rule-issue.ts";
import { writeAtomically } from "../store/durable-files.ts";
import { brokenRules } from "./domain-error.ts";
import { assertInputImage } from "./image-limits.ts";

/**
 * Input images of a request, content-addressed in `<data-dir>/uploads/<sha256>`: a file
 * part or base64 text is stored and its hash remembered, and a `*_hash` parameter names an
 * image uploaded before (the SHA-256 hex of its bytes). Every image is held to the input
 * limits from its header before it is stored or used (image-limits.ts).
 */
export class Uploads {
  constructor(private readonly _dir: string) {
    mkdirSync(_dir, { recursive: true });
  }

  /** Bytes of an image field (file or base64) or of its `_hash` twin; undefined when neither is given. */
  resolve(field: string, value: unknown, hash: unknown): Uint8Array | undefined {
    if (value != null && value !== "") {
      const bytes = value instanceof Uint8Array ? value : this.decode(field, asText(value));
      assertInputImage(field, bytes);
      // Atomic: a kill mid-write must not leave a cut image under its hash for later requests.
      writeAtomically(this.path(sha256(bytes)), bytes);
      return bytes;
    }
    if (hash != null && hash !== "") {
      const path = this.path(asText(hash).toLowerCase());
      if (!/^[0-9a-f]{64}$/i.test(asText(hash)) || !existsSync(path))
        throw brokenRules([issue(`${field}_hash`, "hash-known", "names no image uploaded before (SHA-256 hex of its bytes)")]);
      const bytes = new Uint8Array(readFileSync(path));
      assertInputImage(`${field}_hash`, bytes); // stored before these limits, or by hand
      return bytes;
    }
    return undefined;
  }

  private decode(field: string, text: string): Uint8Array {
    try {
      return base64ToBytes(text);
    } catch {
      throw brokenRules([issue(field, "base64", "is not valid base64")]);
    }
  }

  private path(hash: string): string {
    return join(this._dir, hash);
  }
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A form field's value as the text it was sent as (a number or a boolean as JSON writes it). */
function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}
