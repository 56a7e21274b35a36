/**
 * `babylon-skybox save <id|obfuscated_id> --out DIR [--proxy URL | --upstream URL]`: writes a
 * saved skybox's folder (see the README, "Shipping a skybox") from Node, for build
 * pipelines: skybox.json, the `.hdr` (no GPU here to bake a `.env`: `loadSkybox` prefilters
 * it once and caches it), the background resized with sharp when installed, and the
 * backdrop. Reaches the service through a running proxy (`--proxy`, no key needed here), or
 * directly with SKYBOX_API_KEY (`--upstream`, default the real API, as `babylon-skybox proxy`).
 * Prints one JSON line: the folder and its files.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createSkyboxClient } from "../api/client/create-client.ts";
import { EXPORT_RESOLUTIONS, MESH_QUALITIES, type MeshQualityKey, type ResolutionName } from "../api/reference.ts";
import { DEFAULT_MESH_QUALITY, DEPTH_SCALE } from "../api/rules/export-rules.ts";
import { backgroundImage } from "../dev-server/saved/background-image.ts";
import { writeSavedFolder } from "../dev-server/saved/write-saved-folder.ts";
import { savedIdentity } from "../api/saved/saved-identity.ts";
import { REAL_SKYBOX_UPSTREAM } from "../proxy/upstream/upstream-address.ts";
import { gatherSkyboxFiles } from "./skybox-files.ts";
import { SAVE_USAGE } from "./usage.ts";

export async function runSaveCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: "string" },
      proxy: { type: "string" },
      upstream: { type: "string" },
      force: { type: "boolean", default: false },
      "hdr-resolution": { type: "string" },
      "background-width": { type: "string", default: "4096" },
      "background-format": { type: "string", default: "jpeg" },
      "no-backdrop": { type: "boolean", default: false },
      "mesh-quality": { type: "string", default: DEFAULT_MESH_QUALITY },
      "depth-scale": { type: "string", default: String(DEPTH_SCALE.default) },
      rotation: { type: "string", default: "0" },
      intensity: { type: "string", default: "1" },
      blur: { type: "string", default: "0" },
      quiet: { type: "boolean", default: false },
    },
  });
  if (positionals.length !== 1) throw new Error(`save takes one skybox id or obfuscated id.\n${SAVE_USAGE}`);
  if (!values.out) throw new Error(`save: --out DIR is required (e.g. --out public/skyboxes/sunset).\n${SAVE_USAGE}`);
  if (values.proxy && values.upstream) throw new Error("save: give --proxy or --upstream, not both");
  const id = /^\d+$/.test(positionals[0]!) ? Number(positionals[0]) : positionals[0]!;
  const { client, baseUrl } = clientOf(values.proxy, values.upstream, env);
  const log = values.quiet ? () => undefined : (line: string) => process.stderr.write(`${line}\n`);
  const backdrop = values["no-backdrop"]
    ? null
    : {
        meshQuality: meshQualityOf(values["mesh-quality"]),
        depthScale: numberFlag("depth-scale", values["depth-scale"], DEPTH_SCALE.min, DEPTH_SCALE.max),
      };
  const settings = {
    rotation: numberFlag("rotation", values.rotation, -Infinity, Infinity),
    intensity: numberFlag("intensity", values.intensity, 0, Infinity),
    backgroundBlur: numberFlag("blur", values.blur, 0, 1),
    backdrop,
  };
  const format = values["background-format"];
  if (format !== "jpeg" && format !== "webp")
    throw new Error(`save: --background-format must be jpeg or webp (is ${JSON.stringify(format)})`);
  const width = numberFlag("background-width", values["background-width"], 64, 16384);
  const files = await gatherSkyboxFiles(client, baseUrl, id, { hdrResolution: resolutionOf(values["hdr-resolution"]), backdrop, log });
  const background = await backgroundImage(files.panorama, { width, format });
  if (background.note) log(background.note);
  const { record } = files;
  const dir = resolve(values.out);
  const manifest = await writeSavedFolder(
    dir,
    {
      by: "cli",
      skybox: savedIdentity(record, files.model),
      settings,
      sun: files.sun,
      files: {
        environment: { path: "environment.hdr", bytes: files.hdr, extra: { format: "hdr" } },
        background: {
          path: `background.${background.extension}`,
          bytes: background.bytes,
          extra: { width: background.width, height: background.height },
        },
        backdrop: files.backdrop
          ? {
              path: files.backdrop.format === "glb" ? "backdrop.glb" : "depth.png",
              bytes: files.backdrop.bytes,
              extra: { format: files.backdrop.format },
            }
          : undefined,
      },
    },
    values.force,
  );
  out(
    JSON.stringify({
      out: dir,
      files: Object.values(manifest.files).map((f) => ({ path: f.path, bytes: f.bytes })),
      sun: manifest.sun !== null,
    }),
  );
}

/** The client: through the proxy (no key: the proxy holds it), or direct with the key. */
function clientOf(proxy: string | undefined, upstream: string | undefined, env: NodeJS.ProcessEnv) {
  if (proxy) {
    const url = new URL(proxy);
    // The proxy's printed URL is its origin; its API is under /skybox unless the URL names a path.
    const baseUrl = url.pathname === "/" ? `${url.origin}/skybox` : url.href.replace(/\/$/, "");
    return { client: createSkyboxClient({ baseUrl }), baseUrl };
  }
  const apiKey = env.SKYBOX_API_KEY;
  if (!apiKey)
    throw new Error(
      "save: SKYBOX_API_KEY is not set. Set it to reach the service directly, or give --proxy URL of a running babylon-skybox proxy.",
    );
  const baseUrl = (upstream ?? REAL_SKYBOX_UPSTREAM).replace(/\/$/, "");
  return { client: createSkyboxClient({ baseUrl, apiKey }), baseUrl };
}

function numberFlag(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw new Error(
      `save: --${name} must be a number${Number.isFinite(min) ? ` from ${min}` : ""}${Number.isFinite(max) ? ` to ${max}` : ""} (is ${JSON.stringify(value)})`,
    );
  return n;
}

function meshQualityOf(value: string | undefined): MeshQualityKey {
  const hit = MESH_QUALITIES.find((m) => m.key === value);
  if (!hit)
    throw new Error(`save: --mesh-quality must be one of ${MESH_QUALITIES.map((m) => m.key).join(", ")} (is ${JSON.stringify(value)})`);
  return hit.key;
}

function resolutionOf(value: string | undefined): ResolutionName | undefined {
  if (value === undefined) return undefined;
  const hit = EXPORT_RESOLUTIONS.find((r) => r.name.toLowerCase() === value.toLowerCase());
  if (!hit)
    throw new Error(
      `save: --hdr-resolution must be one of ${EXPORT_RESOLUTIONS.map((r) => r.name).join(", ")} (is ${JSON.stringify(value)})`,
    );
  return hit.name;
}
