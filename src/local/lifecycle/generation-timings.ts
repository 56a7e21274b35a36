/**
 * Where a generation's time went, logged once it is complete at `--log-level debug` (the
 * benchmark of what users wait for reads it): queued (submitted to rendering, including
 * the lifecycle's delays), then the renderer's steps, then the service's own flush.
 */
import type { RenderTimings } from "../imagery/contract.ts";

/** The start of the log line; the generation id and a JSON object of milliseconds follow. */
export const GENERATION_TIMINGS_LOG = "generation timings";

export function generationTimingsLine(id: number, queueMs: number, render: RenderTimings | undefined, syncMs: number): string {
  const ms = (n: number) => Math.round(n);
  const steps = render
    ? { workerStart: ms(render.workerStart), render: ms(render.render), encode: ms(render.encode), writes: ms(render.writes + syncMs) }
    : { writes: ms(syncMs) };
  return `${GENERATION_TIMINGS_LOG} ${id} ${JSON.stringify({ queue: ms(queueMs), ...steps })}`;
}
