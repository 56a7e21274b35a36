/**
 * The Vite dev server's "Save to project" route (`POST {basePath}/project/skyboxes`, see
 * src/api/saved/save-request.ts): writes the skybox the pane sends into the project, by
 * default `public/skyboxes/<slug>/`, so the app ships it as static files. Only the dev server
 * mounts it (the proxy in production has no such route). It never writes outside the
 * project's root, and never over an existing folder unless the request says so (409 first).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { quotedInput, ruleSentence } from "../../api/errors/rule-sentence.ts";
import { SAVE_TO_PROJECT_PATH, SaveToProjectMeta, type SaveToProjectAnswer } from "../../api/saved/save-request.ts";
import { backgroundImage } from "./background-image.ts";
import { projectPath } from "./project-root.ts";
import { FolderExistsError, writeSavedFolder } from "./write-saved-folder.ts";

/** Where saves go. */
export interface SaveRouteOptions {
  /** Vite's root: nothing is written outside it. */
  root: string;
  /** The project (project-root.ts): the answer names the folder written relative to it. @default root */
  project?: string;
  /** The folder of saved skyboxes (absolute, inside `root`). */
  folder: string;
  /** Vite's public folder and base URL: a folder inside it is served at `base` + its path. */
  publicDir: string;
  base: string;
  /** The proxy's base path, which the route sits under. */
  basePath: string;
}

type Next = (error?: unknown) => void;

/** Thrown for a request that breaks a rule: a 400 with its sentence. */
class BadSave extends Error {}

/**
 * The route as Connect middleware.
 * @param options root, folder, public folder
 */
export function createSaveRoute(options: SaveRouteOptions): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  const path = `${options.basePath}${SAVE_TO_PROJECT_PATH}`;
  if (!inside(options.root, options.folder))
    throw new Error(`babylon-skybox: saveFolder ${options.folder} is outside the project's root ${options.root}`);
  return (req, res, next) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== path) return next();
    if (req.method !== "POST") return answer(res, 405, { error: `${path} takes POST` });
    save(req, options).then(
      (body) => answer(res, 200, body),
      (error: unknown) => {
        if (error instanceof FolderExistsError)
          return answer(res, 409, { error: error.message, folder: projectPath(options.project ?? options.root, error.dir) });
        if (error instanceof BadSave) return answer(res, 400, { error: error.message });
        answer(res, 500, { error: `The skybox could not be saved: ${(error as Error).message}` });
      },
    );
  };
}

async function save(req: IncomingMessage, options: SaveRouteOptions): Promise<SaveToProjectAnswer> {
  const form = await new Request("http://dev-server/", {
    method: "POST",
    headers: req.headers as HeadersInit,
    body: Readable.toWeb(req) as ReadableStream,
    duplex: "half",
  } as RequestInit)
    .formData()
    .catch((error: unknown) => {
      throw new BadSave(`The save is not multipart form data: ${(error as Error).message}`);
    });
  const meta = parseMeta(form.get("meta"));
  const file = async (name: string, required: boolean) => {
    const value = form.get(name);
    if (value === null && !required) return undefined;
    if (!(value instanceof Blob)) throw new BadSave(`${name}: is required (a file)`);
    return new Uint8Array(await value.arrayBuffer());
  };
  const [environment, panorama, hdr, backdrop] = await Promise.all([
    file("environment", true),
    file("panorama", true),
    file("hdr", false),
    file("backdrop", meta.settings.backdrop !== null),
  ]);
  const dir = resolve(options.folder, meta.slug);
  // The slug's rule already keeps it in the folder; this holds whatever the folder is.
  if (!inside(options.root, dir)) throw new BadSave(`slug: the folder would be outside the project (${dir})`);
  const background = await backgroundImage(panorama!, meta.background);
  await writeSavedFolder(
    dir,
    {
      by: "pane",
      skybox: meta.skybox,
      settings: meta.settings,
      sun: meta.sun,
      files: {
        environment: { path: "environment.env", bytes: environment!, extra: { format: "env" } },
        hdr: hdr && { path: "environment.hdr", bytes: hdr, extra: {} },
        background: {
          path: `background.${background.extension}`,
          bytes: background.bytes,
          extra: { width: background.width, height: background.height },
        },
        backdrop:
          backdrop && meta.settings.backdrop
            ? {
                path: meta.skybox.model === 3 ? "backdrop.glb" : "depth.png",
                bytes: backdrop,
                extra: { format: meta.skybox.model === 3 ? "glb" : "depth-png" },
              }
            : undefined,
      },
    },
    meta.overwrite,
  );
  const url = inside(options.publicDir, dir)
    ? `${options.base.replace(/\/?$/, "/")}${relative(options.publicDir, dir).split(sep).join("/")}/skybox.json`
    : null;
  const folder = projectPath(options.project ?? options.root, dir);
  return {
    folder,
    url,
    code: `const sky = await loadSkybox(scene, ${JSON.stringify(url ?? `<the URL your app serves ${folder}/skybox.json at>`)});`,
    note: background.note,
  };
}

function parseMeta(value: FormDataEntryValue | null): SaveToProjectMeta {
  if (typeof value !== "string") throw new BadSave("meta: is required (the save's JSON)");
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new BadSave("meta: must be JSON");
  }
  const parsed = SaveToProjectMeta.safeParse(json, { error: ruleSentence, reportInput: true });
  if (!parsed.success)
    throw new BadSave(
      parsed.error.issues.map((i) => `meta.${i.path.map(String).join(".")}: ${i.message}${quotedInput(i.input)}`).join("; "),
    );
  return parsed.data;
}

/** Whether `path` is `root` or below it. */
function inside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}
