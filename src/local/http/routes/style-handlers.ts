import type { Context } from "hono";
import * as z from "zod/mini";
import { int } from "../../../api/schemas/fields.ts";
import { familiesJson, styleJson, stylesOf } from "../../catalogue/style-json.ts";
import type { ApiHandlers } from "../api-routes.ts";
import type { AppEnv, ServiceContext } from "../context.ts";
import { queryInput } from "../lenient-input.ts";

/** Any model number: 3 and 4 have styles; another (the discontinued 2) has none, an empty list rather than an error. */
const StyleQuery = z.object({ model_version: z.optional(int) });

export function styleHandlers(ctx: ServiceContext) {
  const modelOf = (c: Context<AppEnv>) => queryInput(ctx, c, StyleQuery).model_version ?? null;
  const list = (c: Context<AppEnv>) => c.json(stylesOf(modelOf(c)).map((s) => styleJson(s, ctx.views.baseUrl())));
  const families = (c: Context<AppEnv>) => c.json(familiesJson(modelOf(c), ctx.views.baseUrl()));
  return {
    styles: list,
    // Deprecated: replaced by /skybox/styles, answered the same way.
    legacyStyles: list,
    families,
    // The Unity SDKs' menu of styles: families, as /skybox/families answers them.
    menu: families,
  } satisfies Partial<ApiHandlers>;
}
