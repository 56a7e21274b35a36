/**
 * babylon-skybox: browser-safe entry. The client, its schemas and rules; status tracking
 * and `applySkybox` join it as they land.
 */
export * from "./api/index.ts";
export * from "./status/index.ts";
