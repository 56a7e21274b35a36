/**
 * A saved skybox's folder as `loadSkybox` reads it over plain HTTP: the manifest, fetched
 * and validated, and each file it names downloaded once (relative to the manifest's URL)
 * and checked against its size and SHA-256 before anything uses it.
 */
import { checkSavedFile, parseSavedSkybox } from "../../api/saved/saved-files.ts";
import { MANIFEST_FILE, type SavedFile, type SavedSkybox } from "../../api/saved/saved-skybox.ts";
import { downloadBytes } from "../exports/download.ts";
import type { ProgressSink } from "../progress.ts";

export class SavedFolder {
  private readonly _files = new Map<string, Promise<Uint8Array>>();

  readonly url: URL;
  readonly manifest: SavedSkybox;
  private readonly _progress: ProgressSink;
  private readonly _signal: AbortSignal | undefined;

  private constructor(opened: { url: URL; manifest: SavedSkybox; progress: ProgressSink; signal: AbortSignal | undefined }) {
    this.url = opened.url;
    this.manifest = opened.manifest;
    this._progress = opened.progress;
    this._signal = opened.signal;
  }

  /**
   * Fetches and validates the manifest.
   * @param url the manifest's URL (relative to the page)
   * @param progress where downloads report
   * @param signal cancels the downloads
   * @throws Error naming skybox.json: not found, an HTML page or other text that is not JSON, or a field breaking its rule
   */
  static async open(url: string, progress: ProgressSink, signal: AbortSignal | undefined): Promise<SavedFolder> {
    const base = typeof location === "undefined" ? undefined : location.href;
    const absolute = new URL(url, base);
    let contentType = "";
    const bytes = await downloadBytes(absolute.href, MANIFEST_FILE, {
      ...(signal ? { signal } : {}),
      onHeaders: (h) => (contentType = h.get("content-type") ?? ""),
    });
    const manifest = parseSavedSkybox(manifestJson(bytes, contentType, absolute.href), absolute.href);
    return new SavedFolder({ url: absolute, manifest, progress, signal });
  }

  /**
   * The bytes of a file of the manifest, downloaded once and checked.
   * @throws Error naming the file: missing (its HTTP status), or not the file saved
   */
  bytes(entry: SavedFile): Promise<Uint8Array> {
    let pending = this._files.get(entry.path);
    if (!pending) {
      pending = (async () => {
        const url = new URL(entry.path, this.url).href;
        this._progress({ stage: "downloading", detail: entry.path, fraction: 0 });
        const bytes = await fetchBytes(url, entry.path, this._signal, (fraction) =>
          this._progress({ stage: "downloading", detail: entry.path, fraction }),
        );
        await checkSavedFile(entry, bytes);
        return bytes;
      })();
      this._files.set(entry.path, pending);
    }
    return pending;
  }
}

function fetchBytes(
  url: string,
  label: string,
  signal: AbortSignal | undefined,
  onFraction?: (fraction: number) => void,
): Promise<Uint8Array> {
  return downloadBytes(url, label, {
    ...(signal ? { signal } : {}),
    ...(onFraction ? { onFraction: (_label: string, f: number) => onFraction(f) } : {}),
  });
}

/**
 * The manifest's JSON. A server with no such file often answers its index page instead (Vite,
 * single-page-app hosts): that is said in words, not as a JSON parser's complaint about `<`.
 */
function manifestJson(bytes: Uint8Array, contentType: string, url: string): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
    if (mediaType === "text/html" || /^\s*<(!doctype|html)/i.test(text)) {
      const what = mediaType === "text/html" ? "text/html, an HTML page" : "an HTML page";
      throw new Error(
        `${MANIFEST_FILE} (${url}) is not a skybox manifest: the server answered ${what}, not JSON (servers often answer a file they do not have with their index page)`,
        { cause: error },
      );
    }
    throw new Error(`${MANIFEST_FILE} (${url}) is not a skybox manifest: it is not JSON (${(error as Error).message})`, { cause: error });
  }
}
