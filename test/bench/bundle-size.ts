/**
 * Size of a browser entry as an app's bundler splits it, peers excluded: what loads with the
 * entry (its file and the chunks it imports statically) and what loads later (chunks behind
 * a dynamic `import()`, such as pusher-js or a backdrop builder). Used by the bench part
 * `bundle`, the pane bench and the budget test, so each measures the same thing.
 */
import { build, type Metafile } from "esbuild";
import { gzipSync } from "node:zlib";

/** The most the core entry (`babylon-skybox`) may weigh min+gzip, peers excluded (issue 15). */
export const CORE_BUDGET = 40 * 1024;

/** Peers and optional heavy parts the host app provides: excluded from our size. */
const EXTERNAL = ["@babylonjs/*", "react", "react-dom", "@fluentui/*"];

export interface Contributor {
  /** `zod`, `src/scene`, … (a package, or a folder of src) */
  name: string;
  /** Bytes it adds to the minified code. */
  bytes: number;
}

export interface BundleSize {
  /** Minified bytes of what loads with the entry. */
  minified: number;
  /** The same, gzipped file by file (as served). */
  gzip: number;
  /** What loads only on a dynamic import, in total. */
  lazy: { minified: number; gzip: number; chunks: number; modules: string[] };
  /** Packages and src folders of what loads with the entry, biggest first. */
  contributors: Contributor[];
  /** Its single biggest inputs (files), biggest first. */
  biggestFiles: Contributor[];
}

/** A file to bundle, or code (`export { applySkybox } from "./src/index.ts"`) resolved from the repository root. */
export type BundleEntry = string | { contents: string };

/** Min+gzip size of one entry point bundled for the browser with code splitting, peers excluded. */
export async function bundleSize(entry: BundleEntry): Promise<BundleSize> {
  const result = await build({
    ...(typeof entry === "string"
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: process.cwd(), loader: "ts" as const } }),
    bundle: true,
    minify: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: EXTERNAL,
    outdir: "bundle-size-out",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  // Chunks behind a dynamic import are entry points too: the entry is the one asked for.
  const entryPoint = typeof entry === "string" ? entry : "<stdin>";
  const entryFile = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === entryPoint)!;
  const initial = staticClosure(outputs, entryFile);
  const sizes = (files: string[]) => {
    const codes = files.map((file) => result.outputFiles.find((o) => o.path.endsWith(`/${file}`))!.contents);
    return {
      minified: codes.reduce((n, c) => n + c.byteLength, 0),
      gzip: codes.reduce((n, c) => n + gzipSync(c, { level: 9 }).byteLength, 0),
    };
  };
  const lazyFiles = Object.keys(outputs).filter((file) => file.endsWith(".js") && !initial.includes(file));
  const inputs = initial.flatMap((file) =>
    Object.entries(outputs[file]!.inputs).map(([path, { bytesInOutput }]) => ({ name: path, bytes: bytesInOutput })),
  );
  return {
    ...sizes(initial),
    lazy: { ...sizes(lazyFiles), chunks: lazyFiles.length, modules: lazyFiles.flatMap((file) => moduleName(outputs[file]!.entryPoint)) },
    contributors: grouped(inputs),
    biggestFiles: inputs.filter((i) => i.bytes > 0).sort((a, b) => b.bytes - a.bytes),
  };
}

/** The entry's file and every chunk it imports statically, transitively. */
function staticClosure(outputs: Metafile["outputs"], entryFile: string): string[] {
  const seen = [entryFile];
  for (let i = 0; i < seen.length; i++)
    for (const imported of outputs[seen[i]!]!.imports)
      if (imported.kind === "import-statement" && !imported.external && !seen.includes(imported.path)) seen.push(imported.path);
  return seen;
}

/** `pusher-js`, `backdrop-glb`: what a dynamically imported chunk starts from (none for a shared chunk). */
function moduleName(entryPoint: string | undefined): string[] {
  if (!entryPoint) return [];
  return [/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(entryPoint)?.[1] ?? entryPoint.replace(/^.*\//, "").replace(/\.\w+$/, "")];
}

/** Inputs summed by package (`node_modules/<name>`) or by src folder. */
function grouped(inputs: Contributor[]): Contributor[] {
  const sums = new Map<string, number>();
  for (const { name, bytes } of inputs) {
    const key = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1] ?? name.split("/").slice(0, 2).join("/");
    sums.set(key, (sums.get(key) ?? 0) + bytes);
  }
  return [...sums]
    .map(([name, bytes]) => ({ name, bytes }))
    .filter((c) => c.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** `zod 29.5 KiB, src/scene 27.0 KiB, …`: the first `count` contributors, minified. */
export function describeContributors(contributors: readonly Contributor[], count = 6): string {
  return contributors
    .slice(0, count)
    .map((c) => `${c.name} ${kb(c.bytes)}`)
    .join(", ");
}
