/**
 * babylon-skybox: the browser-safe entry. The typed client and the spec's rules
 * (`src/api`), status tracking (`src/status`) and `applySkybox` (`src/scene`). The
 * Inspector pane is a separate entry, `babylon-skybox/inspector`, loaded on demand.
 * @module babylon-skybox
 */
export * from "./api/index.ts";
export * from "./status/index.ts";
export * from "./scene/index.ts";
