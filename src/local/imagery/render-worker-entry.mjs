// Bootstrap of an imagery worker thread. Node 20 does not apply `--import` loaders given in
// a Worker's execArgv, so when the pool runs from TypeScript sources this registers tsx's
// ESM loader in the worker itself before importing the real worker module.
import { workerData } from "node:worker_threads";

if (workerData.tsx) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(workerData.module);
