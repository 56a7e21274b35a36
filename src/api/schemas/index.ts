export * from "./fields.ts";
export * from "./generation.ts";
export * from "./style.ts";
export * from "./export-request.ts";
export * from "./batch.ts";
export * from "./page.ts";
export * from "./wrapped.ts";
