import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RenderRequest, Size } from "../../../../src/local/imagery/contract.ts";
import { RenderHost } from "../../../../src/local/imagery/pipeline/render-host.ts";
import { waitFor } from "../../../helpers/local-service.ts";
import { smallRender } from "./small-render.ts";

const work = mkdtempSync(join(tmpdir(), "render-host-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(work, `g${++dirs}`);

const request = (size: Size): RenderRequest => smallRender({ seed: 3, size });
const SMALL = { width: 256, height: 128 };
const LARGE = { width: 2048, height: 1024 };

/** Whether process `pid` runs (a zombie, ended but not yet reaped, does not). */
function running(pid: number): boolean {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(status, "utf8"));
  } catch {
    return false;
  }
}

const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

describe("render host", () => {
  it("leaves the V8 flags of the process running the service untouched: no gc in a new context after a render", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", script("service-flags.ts")], { encoding: "utf8", timeout: 120_000 });
    const result = JSON.parse(out.trim().split("\n").at(-1)!) as { status: string; gc: string; globalGc: string };
    expect(result).toEqual({ status: "complete", gc: "undefined", globalGc: "undefined" });
  });

  it("renders in a process of its own, and after that process is killed fails the render with a sentence and starts a new one", async () => {
    const host = new RenderHost();
    try {
      const dir = newDir();
      const first = host.generate(request(LARGE), dir);
      const pid = await waitFor(() => host.pid ?? undefined);
      expect(pid).not.toBe(process.pid);
      await host.stats(); // the render process listens and the render is under way
      process.kill(pid, "SIGKILL");
      await expect(first).rejects.toThrow(/^the render process ended \(SIGKILL\) before it finished; the next render starts a new one$/);
      const again = newDir();
      await host.generate(request(SMALL), again);
      expect(host.pid).not.toBe(pid);
      expect(readdirSync(again)).toContain("image.jpg");
    } finally {
      await host.close();
    }
  });

  it("stops a render when its signal aborts, with the signal's reason, and keeps its process for the next", async () => {
    const host = new RenderHost();
    try {
      await host.ready();
      const pid = host.pid;
      const stop = new AbortController();
      const render = host.generate(request(LARGE), newDir(), stop.signal);
      const reason = new Error("cancelled by the test");
      setTimeout(() => stop.abort(reason), 300);
      await expect(render).rejects.toBe(reason);
      await host.generate(request(SMALL), newDir());
      expect(host.pid).toBe(pid);
    } finally {
      await host.close();
    }
  });

  it("never starts a render cancelled while its render process starts", async () => {
    const host = new RenderHost();
    try {
      const stop = new AbortController();
      const dir = newDir();
      const render = host.generate(request(SMALL), dir, stop.signal);
      const reason = new Error("cancelled while starting");
      stop.abort(reason);
      await expect(render).rejects.toBe(reason);
      await host.stats(); // the render process answers what it was sent in order: a render sent would be under way
      expect(existsSync(dir)).toBe(false);
    } finally {
      await host.close();
    }
  });

  it("drops the warm-up's jobs not started when a render arrives, so the first render never waits for them", async () => {
    const host = new RenderHost();
    try {
      const rowJobs = async () => new Map((await host.stats()).byKind).get("render-rows")?.jobs ?? 0;
      // As the service starts: the warm-up asked for, and a user's render right behind it.
      const warming = host.ready({ warmUp: true });
      await host.generate(request(SMALL), newDir());
      await expect(warming).resolves.toBeUndefined();
      const first = await rowJobs();
      // The same render again: the first one's bands were all the process ran.
      await host.generate(request(SMALL), newDir());
      expect(first).toBeGreaterThan(0);
      expect((await rowJobs()) - first).toBe(first);
    } finally {
      await host.close();
    }
  });

  it("ends its process once idle for idleMs, and starts a new one for the next render", async () => {
    const host = new RenderHost({ idleMs: 200 });
    try {
      await host.ready();
      const pid = host.pid!;
      expect(running(pid)).toBe(true);
      await waitFor(() => host.pid === null && !running(pid), 20_000);
      const dir = newDir();
      await host.generate(request(SMALL), dir);
      expect(readdirSync(dir)).toContain("image.jpg");
    } finally {
      await host.close();
    }
  });

  it("ends its process on close, and refuses work after", async () => {
    const host = new RenderHost();
    await host.ready();
    const pid = host.pid!;
    await host.close();
    expect(running(pid)).toBe(false);
    await expect(host.generate(request(SMALL), newDir())).rejects.toThrow(/closed/);
  });

  it("does not keep its host alive once idle", () => {
    const dir = newDir();
    const out = execFileSync(process.execPath, ["--import", "tsx", script("host-alone.ts"), dir], { encoding: "utf8", timeout: 60_000 });
    expect(out).toContain('{"rendered":true}');
  });

  it("never outlives its host, even one killed with SIGKILL", async () => {
    const host = spawn(process.execPath, ["--import", "tsx", script("host-alone.ts"), newDir(), "wait"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: host.stdout });
    const seen: string[] = [];
    lines.on("line", (line) => seen.push(line));
    const ended = new Promise((resolve) => host.once("exit", resolve));
    try {
      await waitFor(() => seen.includes('{"rendered":true}'), 60_000);
      const { pid } = JSON.parse(seen[0]!) as { pid: number };
      expect(running(pid)).toBe(true);
      host.kill("SIGKILL");
      await ended;
      await waitFor(() => !running(pid), 20_000);
    } finally {
      host.kill("SIGKILL");
    }
  });

  it("refuses an idle time that is not a number of ms", () => {
    expect(() => new RenderHost({ idleMs: -1 })).toThrow("idleMs: must be a finite number of ms, 0 or more (is -1)");
  });
});
