/**
 * `npm run dev`: Vite (the playground, the proxy and, with no key, the local Skybox service),
 * lean for a long session:
 * - Vite's dependency pre-bundling runs first in a process of its own (`vite optimize`,
 *   under a second when its cache is current). Run inside the dev server, the bundler keeps
 *   about 1.5 GB resident for the rest of the session (1.9 GB against 0.35 GB idle here,
 *   whatever glibc's settings); a process that exits gives it all back.
 * - glibc's malloc is held to two arenas: the bundler's dependency scan allocates from many
 *   threads, and with glibc's default of eight arenas per core what it frees stays resident
 *   (1.3 to 1.9 GB idle, against 230 to 350 MB). glibc reads the setting only when a process
 *   starts, hence child processes; other C libraries ignore it.
 */
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const viteBin = join(dirname(require.resolve("vite/package.json")), require("vite/package.json").bin.vite);
const env = { MALLOC_ARENA_MAX: "2", ...process.env };

// Its output only when it fails (it also says the call is deprecated): the dev server then pre-bundles itself and says why.
const optimize = spawnSync(process.execPath, [viteBin, "optimize"], { env, encoding: "utf8" });
if (optimize.status !== 0) process.stderr.write(`${optimize.stdout ?? ""}${optimize.stderr ?? ""}`);

const child = spawn(process.execPath, [viteBin, ...process.argv.slice(2)], { stdio: "inherit", env });

// Ctrl-C reaches both processes (one process group); a signal sent to this one alone is passed on.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
