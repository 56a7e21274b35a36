/**
 * Reading a saved skybox's manifest and checking its files: the rules `loadSkybox` applies
 * and both writers follow. Runs in browsers and Node alike (Web Crypto's SHA-256).
 */
import { quotedInput, ruleSentence } from "../errors/rule-sentence.ts";
import { MANIFEST_FILE, SavedSkybox, type SavedFile } from "./saved-skybox.ts";

/** The SHA-256 of `bytes`, as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The manifest entry of a file about to be written.
 * @param path its name beside skybox.json
 * @param bytes its contents
 */
export async function savedFileOf(path: string, bytes: Uint8Array): Promise<SavedFile> {
  return { path, bytes: bytes.length, sha256: await sha256Hex(bytes) };
}

/**
 * The manifest of `json`, validated.
 * @param json the parsed contents of skybox.json
 * @param where how errors name the manifest (its URL or path)
 * @throws Error naming each wrong field and its rule: `skybox.json (/skyboxes/x/skybox.json): files.environment.sha256: must be ...`
 */
export function parseSavedSkybox(json: unknown, where = MANIFEST_FILE): SavedSkybox {
  const parsed = SavedSkybox.safeParse(json, { error: ruleSentence, reportInput: true });
  const prefix = where === MANIFEST_FILE ? MANIFEST_FILE : `${MANIFEST_FILE} (${where})`;
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map(String).join(".") || "(the whole file)"}: ${i.message}${quotedInput(i.input)}`,
    );
    throw new Error(`${prefix} is not a saved skybox manifest: ${issues.join("; ")}`);
  }
  const manifest = parsed.data;
  const backdrop = manifest.files.backdrop;
  if (manifest.settings.backdrop && !backdrop) throw new Error(`${prefix}: files.backdrop: is required when settings.backdrop is set`);
  const expected = manifest.skybox.model === 3 ? "glb" : "depth-png";
  if (backdrop && backdrop.format !== expected)
    throw new Error(
      `${prefix}: files.backdrop.format: must be "${expected}" for a Model ${manifest.skybox.model} skybox (is "${backdrop.format}")`,
    );
  return manifest;
}

/**
 * Checks a file against its manifest entry.
 * @param entry the entry
 * @param bytes the file as served
 * @throws Error naming the file: its size or its SHA-256 differs from the manifest's
 */
export async function checkSavedFile(entry: SavedFile, bytes: Uint8Array): Promise<void> {
  if (bytes.length !== entry.bytes)
    throw new Error(
      `${entry.path} is ${bytes.length} bytes, but ${MANIFEST_FILE} says ${entry.bytes}: the file is not the one saved (replaced, truncated or changed on the way)`,
    );
  const sha = await sha256Hex(bytes);
  if (sha !== entry.sha256)
    throw new Error(
      `${entry.path} does not match its SHA-256 in ${MANIFEST_FILE} (${sha}, expected ${entry.sha256}): the file was changed after it was saved`,
    );
}
