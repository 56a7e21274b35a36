import { createHmac } from "node:crypto";
import { expect, test } from "vitest";
import { signWebhook } from "../../../src/api/rules/webhook-signature.ts";

test("the webhook signature is hex HMAC-SHA256 of the raw body keyed with the secret, for text, bytes and an empty secret", async () => {
  const body = '{"prompt":"aurora über fjord ✨"}';
  const hmac = (secret: string) => createHmac("sha256", secret).update(body, "utf8").digest("hex");
  expect(await signWebhook(body, "sk_secret")).toBe(hmac("sk_secret"));
  expect(await signWebhook(new TextEncoder().encode(body), "sk_secret")).toBe(hmac("sk_secret"));
  expect(await signWebhook(body, "")).toBe(hmac(""));
});
