/**
 * A process that runs the local service with its own imagery, renders one generation and
 * prints, as one JSON line, what its V8 flags give a new context (render-host.test.ts runs
 * it): `typeof gc` is "undefined" unless something in this process exposed it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { createSkyboxClient } from "../../../../src/api/index.ts";
import { startLocalSkyboxService } from "../../../../src/local/service.ts";
import { waitFor } from "../../../helpers/local-service.ts";

const dataDir = mkdtempSync(join(tmpdir(), "service-flags-"));
const service = await startLocalSkyboxService({ port: 0, speed: 1000, imageScale: 1 / 16, dataDir, log: () => {} });
try {
  const client = createSkyboxClient({ baseUrl: service.url, apiKey: service.apiKey, retry: 0 });
  const { id } = await client.generate({ prompt: "alpine lake at sunset", skybox_style_id: 2 });
  const done = await waitFor(async () => {
    const g = await client.getGeneration(id);
    return ["complete", "error", "abort"].includes(g.status) && g;
  }, 60_000);
  console.log(
    JSON.stringify({ status: done.status, gc: runInNewContext("typeof gc"), globalGc: typeof (globalThis as { gc?: unknown }).gc }),
  );
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
