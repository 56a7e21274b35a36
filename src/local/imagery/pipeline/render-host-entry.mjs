// Bootstrap of the render process (render-host.ts forks it). When the host runs from
// TypeScript sources the process needs a loader for .ts files, and its command line is
// the host's choice (`--expose-gc` only, not the host's own loader flags): try the module
// as is, and if Node cannot load .ts, register tsx's ESM loader here and import it again.
const [module, tsx] = process.argv.slice(2);

try {
  await import(module);
} catch (error) {
  if (tsx !== "tsx" || error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  // A fresh URL: the failed attempt may be cached under the plain one.
  await import(`${module}?tsx`);
}
