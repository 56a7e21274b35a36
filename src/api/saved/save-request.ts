/**
 * "Save to project": the request the pane sends to the Vite dev server's route (never
 * mounted by the proxy in production), as multipart form data: a `meta` field (this schema,
 * JSON) and the files `environment` (the `.env` the browser baked), `panorama`, and when
 * they are saved `hdr` and `backdrop`. The answer tells where the folder was written and the
 * line of code that loads it; 409 when the folder exists and `overwrite` was not set.
 */
import * as z from "zod/mini";
import { SavedSkybox } from "./saved-skybox.ts";

/** Under the proxy's base path: `POST /skybox/project/skyboxes`. `/config`'s `saveToProject` names it when it exists. */
export const SAVE_TO_PROJECT_PATH = "/project/skyboxes";

/** A folder name: lowercase letters, digits and dashes, as URLs keep them. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * The slug of a title: lowercase ASCII words joined by dashes ("Sunset over Dunes!" to
 * "sunset-over-dunes"), or `skybox-<id>` when nothing is left.
 */
export function slugOf(title: string | null | undefined, id: number): string {
  const slug = (title ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug || `skybox-${id}`;
}

/** The `meta` field of a save. */
export const SaveToProjectMeta = /* @__PURE__ */ z.strictObject({
  slug: z.string().check(z.regex(SLUG_PATTERN, { error: "must be lowercase letters, digits and dashes (1 to 64, no dash first or last)" })),
  overwrite: z.boolean(),
  skybox: SavedSkybox.shape.skybox,
  settings: SavedSkybox.shape.settings,
  sun: SavedSkybox.shape.sun,
  background: z.strictObject({
    /** Widest the saved panorama may be. */
    width: z
      .int()
      .check(z.gte(64, { error: "must be an integer from 64 to 16384" }), z.lte(16384, { error: "must be an integer from 64 to 16384" })),
    format: z.enum(["jpeg", "webp"]),
  }),
});
export type SaveToProjectMeta = z.infer<typeof SaveToProjectMeta>;

/** The answer of a save that wrote the folder. */
export const SaveToProjectAnswer = /* @__PURE__ */ z.looseObject({
  /** The folder written, relative to the project's root. */
  folder: z.string(),
  /** The manifest's URL in the app, or null when the folder is outside Vite's public folder. */
  url: z.nullable(z.string()),
  /** The line that loads it. */
  code: z.string(),
  /** Why the background is the panorama as served (sharp missing), if it is. */
  note: z.nullable(z.string()),
});
export type SaveToProjectAnswer = z.infer<typeof SaveToProjectAnswer>;
