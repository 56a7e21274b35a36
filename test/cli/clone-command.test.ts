/**
 * The `babylon-skybox` command in a clone of the repository, as the docs and the playground's
 * shipped page tell a user to run it: `npx babylon-skybox …` after `npm install`, with no
 * build (the sources run through tsx).
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** `npx babylon-skybox <args>` in the repository's root: its exit code and what it printed. */
async function npx(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["--no-install", "babylon-skybox", ...args], {
      cwd: REPO,
      env: { ...process.env, SKYBOX_API_KEY: "" },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe("npx babylon-skybox in a clone", () => {
  test("runs the command from the sources: save with no id is its own usage error, not 'not found'", async () => {
    const { code, out } = await npx(["save"]);
    expect(out).not.toContain("not found");
    expect(out).toContain("save takes one skybox id or obfuscated id.");
    expect(out).toContain("babylon-skybox save <id|obfuscated_id> --out DIR");
    expect(code).not.toBe(0);
  }, 60_000);
});
