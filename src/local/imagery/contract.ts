/**
 * The boundary between the local service (`src/local/`) and its imagery
 * (`src/local/imagery/`): what the service asks to be rendered or exported, and what it
 * gets back. Both sides code against these types only.
 */
import type { ExportTypeKey, HdriModeKey, MeshQualityKey } from "../../api/reference.ts";

/** Visual styles the procedural renderer knows; every catalogue style maps to one. */
export const LOOKS = ["photoreal", "painterly", "anime", "watercolor", "low-poly", "neon", "pixel-art", "digital-art"] as const;
export type Look = (typeof LOOKS)[number];

export interface Size {
  width: number;
  height: number;
}

/** One generation to render. Sizes are final (already multiplied by `--image-scale`). */
export interface RenderRequest {
  prompt: string;
  negativeText: string | null;
  enhancePrompt: boolean;
  seed: number;
  look: Look;
  model: 3 | 4;
  variant: "standard" | "enhanced" | null;
  softLines: boolean;
  size: Size;
  thumbSize: Size;
  depthSize: Size;
  /** Remix from init image: colours and composition guide the result by `strength` (0..1). */
  initImage?: { bytes: Uint8Array; strength: number };
  /** control_model=remix: only the structure (edges, horizon) of this image guides the result. */
  controlImage?: Uint8Array;
  /** Directory of a stored skybox whose scene is reused (remix_imagine_id / remix_collection_id). */
  remixFrom?: string;
  /**
   * Edit: change only the region around direction (centerX, centerY) of the stored source
   * skybox. The centre is in the API's degrees (src/api/panorama/panorama-directions.ts).
   */
  edit?: {
    from: string;
    /** Longitude of the centre, degrees: -180..180, 0 = the panorama's middle, growing to the right (center_x). */
    centerX: number;
    /** Latitude of the centre, degrees: -90..90, positive up (center_y). */
    centerY: number;
    /** Field of view of the edited region, degrees. */
    fov: number;
  };
  /** Image-to-pano: an ordinary (perspective) image extended into a full panorama around it. */
  imageToPano?: Uint8Array;
}

/**
 * The largest input image (init, control, image-to-pano) the imagery decodes, and so the
 * largest a request may bring: the service refuses bigger ones from their header, before
 * anything decodes them, and the decoder holds to the same pixel count. 8192 px is the
 * width of a full-size Model 3 skybox, so a skybox can always be remixed from.
 */
export const INPUT_IMAGE_LIMITS = {
  maxWidth: 8192,
  maxHeight: 8192,
  /** Encoded size of one image (a request body is at most 32 MB, base64 takes 4/3). */
  maxBytes: 20 * 1024 * 1024,
} as const;

/** File names of a stored skybox inside its directory. */
export const STORED_FILES = {
  /** Full-size tone-mapped panorama, JPEG (what `file_url` serves). */
  image: "image.jpg",
  /** 720x360 (scaled) JPEG thumbnail. */
  thumb: "thumb.jpg",
  /** 2048x1024 (scaled) 16-bit greyscale PNG of true distance (near = bright). */
  depth: "depth.png",
  /** Linear HDR radiance at full size, Radiance RGBE (.hdr). */
  radiance: "radiance.hdr",
  /** Raw depth in metres (Float32 little-endian, depthSize), exact distances for exporters. */
  distance: "distance.f32",
  /** The resolved scene description (JSON), reused by remix and edit. */
  scene: "scene.json",
} as const;

export interface RenderResult {
  /** The expanded prompt when `enhancePrompt` was set, else null. */
  enhancedPrompt: string | null;
  /** Where the render's time went, when the renderer measures it (the service logs it at debug level). */
  timings?: RenderTimings;
}

/** Milliseconds of a render's steps, in order. */
export interface RenderTimings {
  /** Waiting for the workers to start (0 once they run). */
  workerStart: number;
  /** The scene and its pixel passes, image and depth. */
  render: number;
  /** After the last pixel pass: JPEG, PNG and radiance.hdr encoded. */
  encode: number;
  /** Every file written and flushed. */
  writes: number;
}

/** One export of a stored skybox. */
export interface ExportRequest {
  /** Directory of the stored skybox (holds `STORED_FILES`). */
  from: string;
  type: ExportTypeKey;
  /** Output equirectangular size (already scaled); ignored for GLB. */
  size: Size;
  hdriMode?: HdriModeKey;
  meshQuality?: MeshQualityKey;
  depthScale?: number;
  /** Path of the file to write, without extension; the exporter adds the right one. */
  out: string;
  /** Scale factor of `--image-scale`, for sizes the exporter picks itself (videos, cube faces). */
  imageScale: number;
}

export interface ExportResult {
  /** Absolute path of the written file. */
  path: string;
  contentType: string;
}
