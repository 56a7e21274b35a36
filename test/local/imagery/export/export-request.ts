/** Builds export requests against a fixture, writing into a fresh temporary directory. */
import { join } from "node:path";
import type { ExportRequest } from "../../../../src/local/imagery/contract.ts";
import { makeTempDir } from "./temp-dirs.ts";

let counter = 0;
let outDir: string | undefined;

export function request(from: string, fields: Partial<ExportRequest> & Pick<ExportRequest, "type">): ExportRequest {
  outDir ??= makeTempDir("skybox-exports-");
  return { from, size: { width: 256, height: 128 }, imageScale: 1, out: join(outDir, `export-${++counter}`), ...fields };
}
