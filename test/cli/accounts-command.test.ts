import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { startLocalProcess } from "../helpers/local-service.ts";

const dir = mkdtempSync(join(tmpdir(), "skybox-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args: string[]) =>
  execFileSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("accounts add creates a key the service accepts; list never prints keys", async () => {
  const added = JSON.parse(cli("accounts", "add", "--data-dir", dir, "--plan", "essential", "--credits", "7"));
  expect(added).toMatchObject({ plan: "essential", credits: 7 });
  expect(cli("accounts", "list", "--data-dir", dir)).not.toContain(added.apiKey);
  const svc = await startLocalProcess({}, dir);
  try {
    const r = await fetch(`${svc.info.url}/api/v1/skybox/styles`, { headers: { "x-api-key": added.apiKey } });
    expect(r.status).toBe(200);
  } finally {
    await svc.kill("SIGTERM");
  }
});

test("bad flags and a corrupt accounts file are clear errors, and the file is kept", () => {
  expect(() => cli("accounts", "add", "--data-dir", dir, "--plan", "platinum")).toThrow(/plan/);
  const broken = mkdtempSync(join(tmpdir(), "skybox-cli-"));
  writeFileSync(join(broken, "accounts.json"), JSON.stringify({ accounts: [{ id: "x" }] }));
  expect(() => cli("accounts", "list", "--data-dir", broken)).toThrow(/accounts\.json is not valid/);
  rmSync(broken, { recursive: true, force: true });
});
