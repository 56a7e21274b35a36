import { build } from "esbuild";
import { gzipSync } from "node:zlib";

/** Peers and optional heavy parts the host app provides: excluded from our size. */
const EXTERNAL = ["@babylonjs/*", "react", "react-dom", "@fluentui/*"];

/** Min+gzip size of one entry point bundled for the browser, peers excluded. */
export async function bundleSize(entry: string): Promise<{ minified: number; gzip: number }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: EXTERNAL,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}
