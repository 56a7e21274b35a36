/**
 * Full garbage collections on demand. A render's shared buffers (hundreds of MB) are
 * freed only once every thread that held them has collected them, and a thread whose own
 * garbage is small does not collect for a long time: the pool and its workers collect
 * when a render lets go of buffers (render-pipeline.ts) and when it ends. Node exposes
 * `gc` only behind a flag; set at run time, it makes `gc` available in contexts created
 * afterwards (the way test runners' leak detectors reach it). V8's flags belong to the process: the pool sets it once, before its workers
 * start, and no thread changes it while others run.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let exposed = false;

/** Lets every thread collect (see the file's comment); call before starting workers. Sets the flag once. */
export function exposeGarbageCollection(): void {
  if (exposed) return;
  exposed = true;
  setFlagsFromString("--expose-gc");
}

let gc: (() => void) | undefined;

/** A full collection of the calling thread's heap; nothing before exposeGarbageCollection. */
export function collectGarbage(): void {
  gc ??= runInNewContext("typeof gc === 'function' ? gc : undefined") as (() => void) | undefined;
  gc?.();
}

/**
 * Every worker of `runner` collects, then the calling thread. A SharedArrayBuffer's memory
 * goes only once no thread holds it; this thread collecting last (it may have held the
 * buffers longest) was what reliably gave back a render's buffers here.
 */
export async function collectEverywhere(runner: { collect?(): Promise<void> }): Promise<void> {
  await runner.collect?.();
  collectGarbage();
}
