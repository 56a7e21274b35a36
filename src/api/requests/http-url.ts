import * as z from "zod/mini";

/** A webhook URL: http or https only, named so in the refusal. */
export const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
