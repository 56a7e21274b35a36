/**
 * `userDailyCredits`: each user's credits in a UTC day, priced by src/api's rules, shared by
 * every instance, refused with a 429 that names the limit and the reset, and given back by
 * aborted generations.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { dailyCreditsMessage, isSkyboxApiError, nextUtcMidnight, type SkyboxClient } from "../../../src/api/index.ts";
import { describeError } from "../../../src/inspector/error-text.ts";
import { startDeployment, type Deployment } from "./deployment.ts";

const LIMIT = 7;
let d: Deployment;
let aliceA: SkyboxClient;
let aliceB: SkyboxClient;

const m3 = { prompt: "quiet bay", skybox_style_id: 2 };
const enhanced = { prompt: "quiet bay", skybox_style_id: 101, variant_id: 1012 };
const standard = { prompt: "quiet bay", skybox_style_id: 102, variant_id: 1021 };

beforeAll(async () => {
  d = await startDeployment(2, { userDailyCredits: LIMIT });
  [aliceA, aliceB] = [d.client("alice", 0), d.client("alice", 1)];
}, 60_000);
afterAll(() => d?.close());

async function refusal(send: Promise<unknown>) {
  const error = await send.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isSkyboxApiError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

test("Model 4 is priced by variant; the request that would pass the cap is a 429 naming the limit and the reset, on every instance", async () => {
  const first = await aliceA.generate(enhanced); // 4
  await aliceB.generate(standard); // 3: 7 of 7
  const res = await d.as("alice", 0)("/api/v1/skybox", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(m3),
  });
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ error: dailyCreditsMessage(LIMIT, 7, 1, nextUtcMidnight(Date.now())) });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Math.abs(Date.now() + retryAfter * 1000 - nextUtcMidnight(Date.now()).getTime())).toBeLessThan(5000);
  const error = await refusal(aliceB.generate(m3));
  expect(error.kind).toBe("insufficient_credits");
  const shown = describeError(error, "Generation failed");
  expect(shown.message).toMatch(/not enough credits/);
  expect(shown.serverMessage).toMatch(/daily credit limit on this proxy is 7 credits.*resets at \d{4}-\d\d-\d\dT00:00:00Z/);
  // Another user has a day of their own.
  expect((await d.client("bob", 1).generate(m3)).status).toBe("pending");

  // Cancelled through the proxy: aborted, its 4 credits come back at once.
  expect((await aliceB.cancelGeneration(first.id)).success).toBeTruthy();
  await aliceA.generate(m3); // 3 + 1 = 4
  expect((await refusal(aliceA.generate(enhanced))).kind).toBe("insufficient_credits"); // 4 + 4 > 7
  await aliceB.generate(standard); // 7
});

test("a generation aborted behind the proxy's back gives its credits back when the cap is next met", async () => {
  const carol = d.client("carol", 0);
  const g = await carol.generate(enhanced); // 4
  await carol.generate(standard); // 7
  // Cancelled at the upstream directly: no proxy saw it end.
  await fetch(`${d.svc.info.url}/api/v1/imagine/requests/${g.id}`, { method: "DELETE", headers: { "x-api-key": d.svc.info.apiKey } });
  expect((await d.client("carol", 1).generate(enhanced)).status).toBe("pending"); // 3 + 4
});

test("a batch costs each of its items, and is refused whole past the cap", async () => {
  const dave = d.client("dave", 1);
  const batch = await dave.generateBatch({ ...m3, quantity: 3 }); // 3
  expect(batch.generations).toHaveLength(3);
  const error = await refusal(d.client("dave", 0).generateBatch({ ...enhanced, quantity: 2 }, { variantName: "Enhanced" })); // 3 + 8 > 7
  expect([error.status, error.kind]).toEqual([429, "insufficient_credits"]);
  expect(error.serverMessage).toBe(dailyCreditsMessage(LIMIT, 3, 8, nextUtcMidnight(Date.now())));
  expect((await d.client("dave", 0).generate(enhanced)).status).toBe("pending"); // 3 + 4
});
