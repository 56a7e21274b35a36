/**
 * Full garbage collections on demand. A render's shared buffers (hundreds of MB) are
 * freed only once every thread that held them has collected them, and a thread whose own
 * garbage is small does not collect for a long time: the pool and its workers collect
 * when a render lets go of buffers (render-pipeline.ts) and when it ends. `gc` exists only
 * where the process was started with `--expose-gc`: the render process is (render-host.ts
 * starts it so), and its worker threads inherit the flag. Elsewhere (a pool inside a test
 * or a script) nothing is collected on demand.
 */

const gc = (globalThis as { gc?: () => void }).gc;

/** A full collection of the calling thread's heap where `--expose-gc` is set; nothing elsewhere. */
export function collectGarbage(): void {
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
