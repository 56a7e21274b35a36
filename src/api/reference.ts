/**
 * The spec's reference lists (export types, resolutions, mesh qualities, HDRI modes) as
 * constants. The real service is the authority at run time (a client looks ids up by key,
 * see `real-clients.md`); these are the values of the specification, used by the rules,
 * by the local service and as defaults.
 */

/** `premium_feature`: whether the type needs a paid plan, as the real list says (JPG and PNG are free). */
export const EXPORT_TYPES = [
  { id: 1, name: "JPG", key: "equirectangular-jpg", premium_feature: false },
  { id: 2, name: "PNG", key: "equirectangular-png", premium_feature: false },
  { id: 3, name: "Cube Map - Roblox", key: "cube-map-roblox-png", premium_feature: true },
  { id: 4, name: "HDRI HDR", key: "hdri-hdr", premium_feature: true },
  { id: 5, name: "HDRI EXR", key: "hdri-exr", premium_feature: true },
  { id: 6, name: "Depth Map", key: "depth-map-png", premium_feature: true },
  { id: 7, name: "Video Landscape", key: "video-landscape-mp4", premium_feature: true },
  { id: 8, name: "Video Portrait", key: "video-portrait-mp4", premium_feature: true },
  { id: 9, name: "Video Square", key: "video-square-mp4", premium_feature: true },
  { id: 10, name: "Cube Map - Default", key: "cube-map-default-png", premium_feature: true },
  { id: 11, name: "GLB", key: "3d-mesh-glb", premium_feature: true },
] as const;

/** The stable key of an export type (`hdri-hdr`, `3d-mesh-glb`, ...); look ids up by key, never hard-code them. */
export type ExportTypeKey = (typeof EXPORT_TYPES)[number]["key"];

/** The export resolutions the spec lists, 1K to 16K, with their ids and pixel sizes. */
export const EXPORT_RESOLUTIONS = [
  { id: 1, name: "1K", width: 1024, height: 512 },
  { id: 2, name: "2K", width: 2048, height: 1024 },
  { id: 3, name: "4K", width: 4096, height: 2048 },
  { id: 4, name: "8K", width: 8192, height: 4096 },
  { id: 7, name: "16K", width: 16384, height: 8192 },
] as const;

/** A resolution's name, `1K` to `16K`. */
export type ResolutionName = (typeof EXPORT_RESOLUTIONS)[number]["name"];

/** The GLB export's mesh qualities, low to epic, with their ids. */
export const MESH_QUALITIES = [
  { id: 1, name: "Low", key: "low", premium_feature: true },
  { id: 2, name: "Medium", key: "medium", premium_feature: true },
  { id: 3, name: "High", key: "high", premium_feature: true },
  { id: 4, name: "Epic", key: "epic" },
] as const;

/** A mesh quality's key: `low`, `medium`, `high` or `epic`. */
export type MeshQualityKey = (typeof MESH_QUALITIES)[number]["key"];

/** The HDRI export's modes (artistic, realism, studio, interior, space), with their ids. */
export const HDRI_MODES = [
  { id: 1, name: "Artistic", key: "artistic", premium_feature: true },
  { id: 2, name: "Realism", key: "realism", premium_feature: true },
  { id: 3, name: "Studio", key: "studio", premium_feature: true },
  { id: 4, name: "Interior", key: "interior", premium_feature: true },
  { id: 5, name: "Space", key: "space" },
] as const;

/** An HDRI mode's key (`realism`, ...). */
export type HdriModeKey = (typeof HDRI_MODES)[number]["key"];

/** The account plans, from the smallest: they decide Model 4, batch caps and pending limits. */
export const PLANS = ["free", "essential", "standard", "business"] as const;
/** An account plan: `free`, `essential`, `standard` or `business`. */
export type Plan = (typeof PLANS)[number];

/** Image sizes of a generation (spec "Limits"). */
export const IMAGE_SIZES = {
  model3: { width: 8192, height: 4096 },
  model4: { width: 4096, height: 2048 },
  thumb: { width: 720, height: 360 },
  depth: { width: 2048, height: 1024 },
} as const;
