import { Batch } from "../schemas/batch.ts";
import { WrappedExport } from "../schemas/export-request.ts";
import { WrappedGeneration } from "../schemas/generation.ts";
import type { CallOptions } from "./client-options.ts";
import type { Send } from "./transport.ts";

/**
 * The routes that read one record by its id: what a status tracker polls, apart from the
 * routes that change anything, so an app that only follows records bundles only these.
 */
export function recordRoutes(send: Send) {
  return {
    /** GET /imagine/requests/{id}: one generation (unwraps `{request}`, `{imagine}` or a bare record). */
    getGeneration: (id: number, options: CallOptions = {}) =>
      send("getGeneration", { ...options, params: { id }, schema: WrappedGeneration }),
    /** GET /imagine/requests/obfuscated-id/{obfuscated_id} */
    getGenerationByObfuscatedId: (obfuscatedId: string, options: CallOptions = {}) =>
      send("getGenerationByObfuscatedId", { ...options, params: { key: obfuscatedId }, schema: WrappedGeneration }),
    /** GET /skybox/export/{id} */
    getExport: (id: string, options: CallOptions = {}) => send("getExport", { ...options, params: { key: id }, schema: WrappedExport }),
    /** GET /skybox/batch/{id}: one batch with its generations. */
    getBatch: (id: number, options: CallOptions = {}) => send("getBatch", { ...options, params: { id }, schema: Batch }),
  };
}
