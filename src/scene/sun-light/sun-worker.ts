/**
 * The sun finder's worker: decodes an HDR export and finds its sun off the page's main thread
 * (src/scene/sun-light/sun-finder.ts starts it and sends it the bytes). It says it is ready
 * once its code has loaded, so the page keeps its bytes until a worker that can take them
 * exists; each job's answer, or the error it met, goes back under the job's id, with the
 * decoded pixels when the job keeps them (the lighting of the same file then decodes nothing).
 */
import { findSun, type SunFinding } from "../analysis/detect-sun.ts";
import { decodeHdr, type HdrPixels } from "../analysis/hdr-pixels.ts";

/** A job: an `.hdr` file's bytes (their buffer transferred) to find the sun in. */
export interface SunJob {
  id: number;
  bytes: Uint8Array;
  /** Whether the decoded pixels come back too (their buffer transferred): the lighting made of the same file takes them. */
  keepPixels: boolean;
}

/** What the worker posts: that it is ready, or a job's finding (and pixels, when kept) or error. */
export type SunWorkerReply =
  { ready: true } | { id: number; finding: SunFinding; pixels: HdrPixels | null } | { id: number; error: string };

/** The worker's global scope, as much of it as this module uses (the project's types are the page's, not a worker's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<SunJob>) => void) | null;
  postMessage(reply: SunWorkerReply, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = ({ data: { id, bytes, keepPixels } }) => {
  try {
    const pixels = decodeHdr(bytes);
    const finding = findSun(pixels);
    if (keepPixels) scope.postMessage({ id, finding, pixels }, [pixels.rgb.buffer]);
    else scope.postMessage({ id, finding, pixels: null });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
scope.postMessage({ ready: true });
