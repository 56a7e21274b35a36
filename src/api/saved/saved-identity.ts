/** What a saved skybox's manifest says of the generation it holds, from its record. */
import type { Generation } from "../schemas/generation.ts";
import type { SavedSkybox } from "./saved-skybox.ts";

/**
 * The manifest's `skybox`: ids, title, prompt, style, seed and model of the generation.
 * @param record the generation's record, as the API answers it
 * @param model the model it was made with (3 or 4)
 */
export function savedIdentity(record: Generation, model: 3 | 4): SavedSkybox["skybox"] {
  const hasStyle = record.skybox_style_id != null || record.skybox_style_name;
  return {
    id: record.id,
    obfuscated_id: record.obfuscated_id,
    title: record.title ?? null,
    prompt: record.prompt ?? "",
    style: hasStyle ? { id: record.skybox_style_id ?? null, name: record.skybox_style_name ?? null } : null,
    seed: record.seed ?? null,
    model,
  };
}
