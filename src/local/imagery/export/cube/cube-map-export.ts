/**
 * cube-map-default-png and cube-map-roblox-png: one ZIP of six square PNG faces, each
 * width / 4 of the requested equirectangular size.
 *
 * Default set: px, nx, py, ny, pz, nz.png in Babylon's cube convention (cube-faces.ts).
 * Roblox set (Sky.SkyboxBk ... SkyboxUp), as the widely used panorama-to-Roblox convention
 * ("Custom Skyboxes 101", Roblox DevForum) expects, all seen from inside the sky:
 *   Skybox_Ft = pz (panorama centre, u = 0.5)    Skybox_Bk = nz (u = 0 / 1)
 *   Skybox_Rt = px (u = 0.75)                    Skybox_Lf = nx (u = 0.25)
 *   Skybox_Up = py turned 90 deg clockwise       Skybox_Dn = ny turned 90 deg counter-clockwise
 * (py's bottom edge and ny's top edge meet Ft before the turn.)
 */
import { writeFile } from "node:fs/promises";
import { zipSync, type Zippable } from "fflate";
import sharp from "sharp";
import type { ExportRequest } from "../../contract.ts";
import { renderFace, rotateQuarter, type FaceName } from "./cube-faces.ts";
import { noLargerThan, panoramaSize, readPanorama } from "../stored-skybox.ts";

interface FaceFile {
  name: string;
  face: FaceName;
  turn?: 1 | -1;
}

const DEFAULT_SET: FaceFile[] = (["px", "nx", "py", "ny", "pz", "nz"] as const).map((face) => ({ name: `${face}.png`, face }));

const ROBLOX_SET: FaceFile[] = [
  { name: "Skybox_Bk.png", face: "nz" },
  { name: "Skybox_Dn.png", face: "ny", turn: -1 },
  { name: "Skybox_Ft.png", face: "pz" },
  { name: "Skybox_Lf.png", face: "nx" },
  { name: "Skybox_Rt.png", face: "px" },
  { name: "Skybox_Up.png", face: "py", turn: 1 },
];

/** ZIP entries carry a fixed date, so identical skyboxes give identical archives. */
const ENTRY_DATE = new Date(2024, 0, 1);

export async function exportCubeMap(req: ExportRequest, set: "default" | "roblox", path: string, signal?: AbortSignal): Promise<void> {
  const size = Math.max(1, Math.round(req.size.width / 4));
  const pano = await readPanorama(req.from, noLargerThan(req.size, await panoramaSize(req.from)));
  const entries: Zippable = {};
  // Render one face in JS while sharp encodes the previous one on its own threads.
  let previous: Promise<void> = Promise.resolve();
  try {
    for (const file of set === "default" ? DEFAULT_SET : ROBLOX_SET) {
      signal?.throwIfAborted();
      let rgb = renderFace(pano, file.face, size);
      if (file.turn) rgb = rotateQuarter(rgb, size, file.turn);
      await previous;
      previous = encodePng(rgb, size).then((png) => {
        entries[file.name] = [png, { level: 0, mtime: ENTRY_DATE }];
      });
    }
  } finally {
    // The encode under way is this export's too: it settles before the export does.
    await previous.catch(() => {});
  }
  await previous;
  await writeFile(path, zipSync(entries));
}

async function encodePng(rgb: Uint8Array, size: number): Promise<Uint8Array> {
  const png = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.length);
}
