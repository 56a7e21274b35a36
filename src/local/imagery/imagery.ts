import type { ExportRequest, ExportResult, RenderRequest, RenderResult } from "./contract.ts";

/** What the service needs of its imagery: render a generation, write an export, stop. */
export interface Imagery {
  generate(request: RenderRequest, dir: string): Promise<RenderResult>;
  runExport(request: ExportRequest): Promise<ExportResult>;
  close(): Promise<void>;
}
