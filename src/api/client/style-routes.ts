import { Style, StyleFamily } from "../schemas/style.ts";
import { listOf } from "../schemas/wrapped.ts";
import type { CallOptions } from "./client-options.ts";
import type { Send } from "./transport.ts";

export interface StyleQuery {
  /** 3 selects Model 3 styles; 4 Model 4 styles; a discontinued model (2) has none. */
  model_version?: number | `${number}`;
}

export function styleRoutes(send: Send, remember: (styles: Style[]) => void) {
  const grouped =
    (route: "families" | "menu") =>
    async (query: StyleQuery = {}, options: CallOptions = {}) => {
      const families = await send(route, { ...options, schema: listOf(StyleFamily), query: { ...query } });
      remember(families.flatMap((f) => f.items));
      return families;
    };
  return {
    /** GET /skybox/styles: the styles, optionally of one model. */
    async styles(query: StyleQuery = {}, options: CallOptions = {}) {
      const styles = await send("styles", { ...options, schema: listOf(Style), query: { ...query } });
      remember(styles);
      return styles;
    },
    /** GET /skybox/families: styles grouped into families for a menu. */
    families: grouped("families"),
    /** GET /skybox/menu: the styles menu the Unity SDKs read, shaped like families. */
    menu: grouped("menu"),
  };
}
