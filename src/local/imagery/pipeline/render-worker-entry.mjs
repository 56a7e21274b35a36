// Bootstrap of an imagery worker thread. When the pool runs from TypeScript sources the
// worker needs a loader for .ts files. Node 20 does not apply `--import` loaders given in
// a Worker's execArgv (newer versions may), so: try the module as is, and if Node cannot
// load .ts, register tsx's ESM loader here and import it again.
import { workerData } from "node:worker_threads";

try {
  await import(workerData.module);
} catch (error) {
  if (!workerData.tsx || error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  // A fresh URL: the failed attempt may be cached under the plain one.
  await import(`${workerData.module}?tsx`);
}
