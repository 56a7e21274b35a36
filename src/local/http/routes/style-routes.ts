import * as z from "zod";
import { familiesJson, styleJson, stylesOf } from "../../catalogue/style-json.ts";
import type { ApiHandlers } from "../api-routes.ts";
import type { ServiceContext } from "../context.ts";
import { parseInput, queryObject } from "../parse-input.ts";

const StyleQuery = z.looseObject({ model_version: z.enum(["3", "4"]).optional() });
const modelOf = (url: string) => {
  const v = parseInput(StyleQuery, queryObject(url)).model_version;
  return v ? (Number(v) as 3 | 4) : null;
};

export function styleHandlers(ctx: ServiceContext) {
  const list = (url: string) => stylesOf(modelOf(url)).map((s) => styleJson(s, ctx.views.baseUrl()));
  return {
    styles: (c) => c.json(list(c.req.url)),
    // Deprecated: replaced by /skybox/styles, answered the same way.
    legacyStyles: (c) => c.json(list(c.req.url)),
    families: (c) => c.json(familiesJson(modelOf(c.req.url), ctx.views.baseUrl())),
  } satisfies Partial<ApiHandlers>;
}
