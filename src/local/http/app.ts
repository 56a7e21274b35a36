import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { API_PREFIX } from "../../api/protocol/routes.ts";
import { errorEnvelope } from "../../api/protocol/error-envelope.ts";
import { registerApiRoutes, type ApiHandlers } from "./api-routes.ts";
import { authenticate, limitPolling } from "./auth.ts";
import type { AppEnv, ServiceContext } from "./context.ts";
import { httpAnswerOf } from "./domain-answer.ts";
import { HttpError, notFound } from "./http-error.ts";
import { MAX_BODY_BYTES } from "./body-reader.ts";
import { adminRoutes } from "./routes/admin-routes.ts";
import { batchHandlers } from "./routes/batch-handlers.ts";
import { exportHandlers } from "./routes/export-handlers.ts";
import { serveFile } from "./routes/file-routes.ts";
import { generationHandlers } from "./routes/generation-handlers.ts";
import { styleHandlers } from "./routes/style-handlers.ts";
import type { StylePreviews } from "./style-previews.ts";
import type { Uploads } from "../records/uploads.ts";
import type { WebhookTargets } from "../records/webhook-targets.ts";

export interface AppParts {
  ctx: ServiceContext;
  uploads: Uploads;
  previews: StylePreviews;
  webhookTargets: WebhookTargets;
  adminToken: string;
  /** Handles the Pusher HTTP publish API; undefined for other paths. */
  pusherHttp: (request: Request) => Promise<Response | undefined>;
  log: (line: string) => void;
}

/** The local service's HTTP API as a Fetch handler (hono). */
export function createApp({ ctx, uploads, previews, webhookTargets, adminToken, pusherHttp, log }: AppParts): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`);
      },
    }),
  );

  app.get("/files/styles/:file{[0-9]+\\.jpg}", async (c) => {
    if (!(await previews.ensure(Number.parseInt(c.req.param("file"), 10)))) throw notFound("File not found");
    return serveFile(c, ctx.dataDir, `styles/${c.req.param("file")}`);
  });
  app.get("/files/*", (c) => serveFile(c, ctx.dataDir, decodeURIComponent(c.req.path.slice("/files/".length))));
  app.post("/apps/:appId/*", async (c) => (await pusherHttp(c.req.raw)) ?? c.json({ error: "Not found" }, 404));
  adminRoutes(app, ctx, adminToken);

  app.use(`${API_PREFIX}/*`, authenticate(ctx));
  // Before a POST starts any work; here because it may wait for DNS, which handlers do not.
  app.use(`${API_PREFIX}/*`, async (c, next) => {
    if (c.req.method === "POST") await webhookTargets.check("webhook_url", c.get("body").webhook_url);
    await next();
  });
  const handlers: ApiHandlers = {
    ...styleHandlers(ctx),
    ...generationHandlers(ctx, uploads),
    ...exportHandlers(ctx),
    ...batchHandlers(ctx, uploads),
  };
  registerApiRoutes(app, handlers, limitPolling(ctx));

  app.notFound((c) => c.json(errorEnvelope(`No route ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    const answer = httpAnswerOf(error);
    if (answer) return c.json(answer.body, answer.status as 400, answer.headers);
    log(`internal error on ${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`);
    return c.json(errorEnvelope("Internal error of the local Skybox service"), 500);
  });
  return app;
}
