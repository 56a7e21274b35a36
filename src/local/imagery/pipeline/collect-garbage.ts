/**
 * A full garbage collection of the calling thread, on demand. A render's shared buffers
 * (hundreds of MB) are freed only once every thread that held them has collected them,
 * and an idle thread does not collect: the pool calls this when it goes idle after
 * rendering. Node exposes `gc` only behind a flag; setting it at run time makes it
 * available in new contexts (the way test runners' leak detectors reach it).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
