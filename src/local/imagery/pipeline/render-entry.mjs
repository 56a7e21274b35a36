// Bootstrap of the render process (render-host.ts forks it, the module and "tsx" or "js" as
// arguments) and of its worker threads (render-pool.ts starts them, the same in workerData).
// Run from TypeScript sources, Node cannot load .ts, and the command line carries no loader
// (Node 20 ignores `--import` in a Worker's execArgv; the render process gets only the flags
// its host chose): then tsx's ESM loader is registered here and the module imported again.
import { isMainThread, workerData } from "node:worker_threads";

const [module, tsx] = isMainThread ? [process.argv[2], process.argv[3] === "tsx"] : [workerData.module, workerData.tsx];

try {
  await import(module);
} catch (error) {
  if (!tsx || error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  // A fresh URL: the failed attempt may be cached under the plain one.
  await import(`${module}?tsx`);
}
