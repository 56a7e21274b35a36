/**
 * Cancel, cancel-all and delete at the worst moment: while the generation renders and its
 * files are being written. `babylon-skybox local` runs as users start it (a process, no
 * flags but speed and size); each action lands at a different instant of the render. After
 * every one the process must still serve, the generation's folder must be gone, the
 * credits refunded, and the log must hold no stray error. (Before the fix, the folder was
 * removed under the render's feet and an unawaited write's ENOENT ended the process.)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { STRAY_ERROR_MARK } from "../../src/cli/stray-errors.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";

type Json = Record<string, any>;
let svc: LocalProcess;

beforeAll(async () => {
  // A quarter of full size: the render lasts long enough (about a second) to be hit in the middle.
  svc = await startLocalProcess({ speed: 1000, "image-scale": 0.25, "rate-limit": 1_000_000 });
});
afterAll(() => svc?.stop());

async function call(method: string, path: string, body?: object): Promise<Json> {
  const r = await fetch(`${svc.info.url}/api/v1${path}`, {
    method,
    headers: { "x-api-key": svc.info.apiKey, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(r.status, `${method} ${path}`).toBeLessThan(500);
  return (await r.json()) as Json;
}
const credits = async () =>
  (await (await fetch(`${svc.info.url}/_admin/accounts`, { headers: { authorization: `Bearer ${svc.info.adminToken}` } })).json())[0]
    .credits as number;
const folderOf = (g: Json) => join(svc.dataDir, "generations", g.obfuscated_id);

/** Starts a generation and waits until it renders, then `delayMs` more. */
async function renderingGeneration(delayMs: number): Promise<Json> {
  const g = await call("POST", "/skybox", { prompt: "alpine lake under a clear sky", skybox_style_id: 2 });
  await waitFor(async () => (await call("GET", `/imagine/requests/${g.id}`)).request.status === "processing", 30_000, 5);
  await new Promise((r) => setTimeout(r, delayMs));
  return g;
}

const actions: [string, (g: Json) => Promise<unknown>][] = [
  ["cancel", (g) => call("DELETE", `/imagine/requests/${g.id}`)],
  ["cancel all", () => call("DELETE", "/imagine/requests/pending")],
  ["delete", (g) => call("DELETE", `/imagine/deleteImagine/${g.id}`)],
];

test.each(actions)(
  "%s while the generation renders and writes its files: the service stays up, the folder goes, the credits come back",
  async (_, act) => {
    let stopped = 0;
    for (const delayMs of [0, 150, 400, 700]) {
      const before = await credits();
      const g = await renderingGeneration(delayMs);
      await act(g);
      // Delete hides the record; cancel leaves it readable, settled.
      const settled = (await call("GET", `/imagine/requests/${g.id}`)).request;
      if (settled) expect(["abort", "complete"]).toContain(settled.status);
      // Its render had time to write every file it started.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(svc.child.exitCode, svc.log.join("\n")).toBe(null);
      // Refunded: it was stopped while rendering, and its folder is gone for good. Else it had
      // completed just before (a late action): it keeps its files.
      const refunded = (await credits()) === before;
      if (refunded) stopped++;
      if (refunded) expect(existsSync(folderOf(g)), `folder of ${g.id} after ${delayMs} ms`).toBe(false);
      else expect(settled?.status ?? "complete", `generation ${g.id}: not refunded, so it must have completed`).toBe("complete");
    }
    // At least the action at once (0 ms) lands while the render runs.
    expect(stopped).toBeGreaterThan(0);
    expect(svc.log.filter((l) => l.includes(STRAY_ERROR_MARK) || /ENOENT|Unhandled/.test(l))).toEqual([]);
    // And the next generation still completes with its files.
    const next = await call("POST", "/skybox", { prompt: "desert at noon", skybox_style_id: 2 });
    const done = await waitFor(async () => {
      const r = (await call("GET", `/imagine/requests/${next.id}`)).request;
      return r.status === "complete" && r;
    }, 60_000);
    expect(existsSync(join(folderOf(done), "image.jpg"))).toBe(true);
  },
  180_000,
);
