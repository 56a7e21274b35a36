/**
 * A small render through the workers right after they start: V8 compiles the renderer's
 * hot functions while nobody waits, so the first generation runs compiled code rather
 * than paying for the compilation itself: about 0.2 s off the playground's first, half-size
 * generation (2.0 s against 2.24 s), lost in the noise at full size. It gives way to real work: a generation that arrives while it runs would otherwise wait
 * for its remaining jobs, so aborting `signal` drops them (the generation compiles the
 * rest itself) and the warm-up ends quietly.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RenderRequest } from "../contract.ts";
import type { ImageryPool } from "./render-pool.ts";

/** Water, mountains, a low sun and Model 4's detail: most of what a render runs. */
const WARM_UP: RenderRequest = {
  prompt: "alpine lake at sunset with snowy mountains",
  negativeText: null,
  enhancePrompt: false,
  seed: 1,
  look: "photoreal",
  model: 4,
  variant: "standard",
  softLines: false,
  size: { width: 512, height: 256 },
  thumbSize: { width: 64, height: 32 },
  depthSize: { width: 128, height: 64 },
};

/** Names of warm-up folders: the prefix, then the pid of the process that made it. */
const PREFIX = "babylon-skybox-warm-up-";
const OWNER = new RegExp(`^${PREFIX}(\\d+)-`);

export interface WarmUpOptions {
  /** Where its temporary folder goes. @default os.tmpdir() */
  root?: string;
  /** Aborted when real work arrives: the jobs not started are dropped, and the warm-up ends quietly. */
  signal?: AbortSignal;
}

/**
 * Renders the warm-up scene into a temporary folder under `root`, removed after. Folders
 * left there by processes that are gone (killed while warming up, so their `finally`
 * never ran: `npm run dev` stopped within its first second) are removed first.
 */
export async function warmUp(pool: Pick<ImageryPool, "generate">, { root = tmpdir(), signal }: WarmUpOptions = {}): Promise<void> {
  await removeOrphans(root);
  const dir = await mkdtemp(join(root, `${PREFIX}${process.pid}-`));
  try {
    await pool.generate(WARM_UP, dir, signal);
  } catch (error) {
    if (!signal?.aborted) throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function removeOrphans(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    const owner = OWNER.exec(name);
    if (owner && !alive(Number(owner[1]))) await rm(join(root, name), { recursive: true, force: true });
  }
}

/** Whether process `pid` runs (EPERM: it does, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
