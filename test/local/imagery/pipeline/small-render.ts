import type { RenderRequest } from "../../../../src/local/imagery/contract.ts";

/** A Model 3 render small enough for a test process to make in a second or two; `changes` replace its fields. */
export function smallRender(changes: Partial<RenderRequest> = {}): RenderRequest {
  return {
    prompt: "alpine lake at sunset with snowy mountains",
    negativeText: null,
    enhancePrompt: false,
    seed: 1,
    look: "photoreal",
    model: 3,
    variant: null,
    softLines: false,
    size: { width: 256, height: 128 },
    thumbSize: { width: 64, height: 32 },
    depthSize: { width: 128, height: 64 },
    ...changes,
  };
}
