import type { Generation } from "../schemas/generation.ts";
import { styleModel } from "./style-info.ts";

/**
 * The model of a generation record: its `model` label ("Model 4"), read as a style's is;
 * Model 3 when the record carries none (the spec's records do not always show it).
 */
export function recordModel(record: Pick<Generation, "model">): 3 | 4 {
  return styleModel({ model: record.model ?? null, model_version: null });
}
