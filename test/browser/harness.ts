/**
 * Shared harness of the browser tests (scene, Inspector pane): finds a Chromium, launches it
 * with pinned software-WebGL flags, and serves BUILT pages (`vite build` + `vite preview`,
 * never the dev server, whose dependency re-optimisation reloads pages mid-test) with the
 * babylon-skybox proxy mounted, in front of an offline local Skybox service.
 *
 * Stable API (other test folders rely on it):
 *   findChromium(): string
 *   CHROMIUM_ARGS: readonly string[]
 *   WEBGPU_ARGS: readonly string[]
 *   launchBrowser(options?): Promise<Browser>
 *   servePages(options): Promise<ServedPages>
 *
 * @example
 * const pages = await servePages({ root: join(import.meta.dirname, "pages") });
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * await page.goto(`${pages.url}/scene.html`);
 * ...
 * await browser.close();
 * await pages.close();
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

export { servePages, type ServePagesOptions, type ServedPages } from "./serve-pages.ts";

/**
 * Flags every browser test launches Chromium with: SwiftShader WebGL2 through ANGLE, no
 * background traffic (`--no-sandbox` is added when running as root).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * Flags added for the WebGPU tests: WebGPU on SwiftShader's Vulkan (Debian's Chromium has no
 * WebGPU on a headless machine without them).
 */
export const WEBGPU_ARGS: readonly string[] = ["--enable-unsafe-webgpu", "--enable-features=Vulkan,WebGPU", "--use-vulkan=swiftshader"];

const INSTALL_COMMAND = "apt-get update && apt-get install -y --no-install-recommends chromium";

/** Chromium binaries a machine may have, in order of preference (never downloaded by us). */
function candidates(): string[] {
  const out: string[] = [];
  if (process.env.CHROME_PATH) out.push(process.env.CHROME_PATH);
  out.push("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser");
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), ".cache", "ms-playwright");
  if (existsSync(cache)) {
    const dirs = readdirSync(cache)
      .filter((d) => /^chromium(_headless_shell)?-\d+$/.test(d))
      .sort()
      .reverse();
    for (const d of dirs)
      for (const sub of [
        "chrome-linux/chrome",
        "chrome-linux64/chrome",
        "chrome-linux/headless_shell",
        "chrome-headless-shell-linux64/chrome-headless-shell",
      ])
        out.push(join(cache, d, sub));
  }
  return out;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/**
 * Path of a Chromium to drive: `CHROME_PATH`, Debian's `/usr/lib/chromium/chromium`,
 * `/usr/bin/chromium`, or a Playwright browser already on the machine. With none, installs
 * Debian's package when running as root with apt-get; otherwise throws naming the command.
 */
export function findChromium(): string {
  const found = candidates().find((p) => existsSync(p));
  if (found) return found;
  if (isRoot() && existsSync("/usr/bin/apt-get")) {
    execFileSync("sh", ["-c", INSTALL_COMMAND], { stdio: "inherit", timeout: 600_000 });
    const installed = candidates().find((p) => existsSync(p));
    if (installed) return installed;
  }
  throw new Error(`No Chromium found for the browser tests. Install one with:\n  ${INSTALL_COMMAND}\n(as root), or set CHROME_PATH.`);
}

/** Options of `launchBrowser`. */
export interface LaunchBrowserOptions {
  /** @default findChromium() */
  executablePath?: string;
  /** Flags added after `CHROMIUM_ARGS`. */
  args?: readonly string[];
  /** Other playwright-core launch options. */
  launch?: Omit<LaunchOptions, "executablePath" | "args">;
}

/** Launches headless Chromium (playwright-core) with the pinned flags. Close it with `browser.close()`. */
export async function launchBrowser(options: LaunchBrowserOptions = {}): Promise<Browser> {
  const args = [...CHROMIUM_ARGS, ...(isRoot() ? ["--no-sandbox"] : []), ...(options.args ?? [])];
  return chromium.launch({ headless: true, ...options.launch, executablePath: options.executablePath ?? findChromium(), args });
}
