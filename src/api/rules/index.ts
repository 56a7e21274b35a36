export * from "./rule-issue.ts";
export * from "./messages.ts";
export * from "./plans.ts";
export * from "./style-info.ts";
export * from "./credits.ts";
export * from "./generation-rules.ts";
export * from "./batch-rules.ts";
export * from "./export-rules.ts";
