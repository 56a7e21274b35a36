/** The wire contract of the Skybox API: each fact of the protocol, once. */
export * from "./statuses.ts";
export * from "./channels.ts";
export * from "./error-envelope.ts";
export * from "./push-settings.ts";
export * from "./proxy-config.ts";
export * from "./routes.ts";
export * from "./daily-credits.ts";
