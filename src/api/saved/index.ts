export * from "./saved-skybox.ts";
export * from "./saved-files.ts";
export * from "./save-request.ts";
