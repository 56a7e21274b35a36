import * as z from "zod/mini";
import { ruleSentence, quotedInput } from "../src/api/errors/rule-sentence.ts";
const S = z.strictObject({
  intensity: z.optional(z.number().check(z.minimum(0))),
  shadowMapSize: z.optional(z.int().check(z.minimum(256), z.maximum(8192), z.refine((n) => (n & (n - 1)) === 0, { error: "must be a power of two" }))),
  shadows: z.optional(z.boolean()),
});
const U = z.union([z.boolean(), S]);
for (const v of [true, { intensity: -1 }, { shadowMapSize: 300 }, { shadowMapSize: 9000 }, { foo: 1 }, "yes", { intensity: Infinity }, { intensity: NaN }]) {
  const r = U.safeParse(v, { error: ruleSentence, reportInput: true });
  console.log(JSON.stringify(v), r.success ? "ok" : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}${quotedInput(i.input)} [${i.code}]`).join(" | "));
}
