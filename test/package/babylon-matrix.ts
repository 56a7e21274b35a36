/**
 * The Babylon releases the consumer test installs, found on the registry when the test runs:
 * (a) the oldest the peer ranges claim, (b) the newest core and loaders with the newest
 * Inspector whose required peers all resolve (one needing a package the registry lacks cannot
 * be installed with a plain `npm install`), and (c) a release in between. Without the registry,
 * only (a), from the npm cache, with the reason.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BabylonVersions } from "./consumer-app.ts";

const run = promisify(execFile);

/** The oldest release the peer ranges claim (`^9.25.0`). */
export const OLDEST: BabylonVersions = { core: "9.25.0", loaders: "9.25.0", inspector: "9.25.0" };

export interface MatrixEntry {
  label: "oldest" | "newest" | "between";
  versions: BabylonVersions;
}

export interface BabylonMatrix {
  entries: MatrixEntry[];
  /** Why (b) and (c) are left out, when they are. */
  skipped: string | null;
}

/** `npm view <args> --json`, parsed; null when npm finds no match. */
async function view<T>(args: string[]): Promise<T | null> {
  try {
    // No retries: an unreachable registry should be told within seconds, not after npm's back-off.
    const { stdout } = await run("npm", ["view", ...args, "--json", "--fetch-retries=0", "--fetch-timeout=20000"], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim() ? (JSON.parse(stdout) as T) : null;
  } catch (error) {
    const { stdout = "" } = error as { stdout?: string };
    // E404 "No match found": the range resolves to nothing. Anything else is the registry failing.
    if (/"code":\s*"E404"/.test(stdout)) return null;
    const code = /"code":\s*"([^"]+)"/.exec(stdout)?.[1];
    throw new Error(`npm view ${args[0]}: ${code ?? (error as Error).message.split("\n")[0]}`, { cause: error });
  }
}

/** Release versions (no pre-releases) at or above the oldest, in ascending order. */
const releases = (versions: string[]) => versions.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && compare(v, OLDEST.core) >= 0).sort(compare);

/** Compares two x.y.z versions. */
export function compare(a: string, b: string): number {
  const [pa, pb] = [a.split(".").map(Number), b.split(".").map(Number)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** The newest of `versions` not newer than `limit`. */
const newestUpTo = (versions: string[], limit: string) => versions.filter((v) => compare(v, limit) <= 0).at(-1)!;

interface InspectorRelease {
  version: string;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Whether every peer npm must install for this Inspector release (the optional ones it does not) exists on the registry. */
async function peersResolve(release: InspectorRelease, resolves: Resolver): Promise<boolean> {
  const required = Object.entries(release.peerDependencies ?? {})
    .filter(([name]) => !release.peerDependenciesMeta?.[name]?.optional)
    .map(([name, range]) => `${name}@${range}`);
  // A peer already known missing rules the release out without asking the registry again.
  if (required.some((spec) => resolves.known(spec) === false)) return false;
  return (await Promise.all(required.map((spec) => resolves.ask(spec)))).every(Boolean);
}

/** Asks the registry whether a `name@range` has a version, once per spec. */
class Resolver {
  private readonly _answers = new Map<string, Promise<boolean>>();
  private readonly _known = new Map<string, boolean>();
  known(spec: string): boolean | undefined {
    return this._known.get(spec);
  }
  ask(spec: string): Promise<boolean> {
    if (!this._answers.has(spec))
      this._answers.set(
        spec,
        view<string | string[]>([spec, "version"]).then((v) => {
          const found = v !== null && v.length > 0;
          this._known.set(spec, found);
          return found;
        }),
      );
    return this._answers.get(spec)!;
  }
}

/** Finds the three entries on the registry (or only the oldest, when it cannot be reached). */
export async function findBabylonMatrix(): Promise<BabylonMatrix> {
  let core: string[];
  let loaders: string[];
  let inspectors: InspectorRelease[];
  try {
    [core, loaders, inspectors] = await Promise.all([
      view<string[]>(["@babylonjs/core", "versions"]).then((v) => releases(v ?? [])),
      view<string[]>(["@babylonjs/loaders", "versions"]).then((v) => releases(v ?? [])),
      view<InspectorRelease[]>([`@babylonjs/inspector@>=${OLDEST.inspector}`, "version", "peerDependencies", "peerDependenciesMeta"]).then(
        (v) => v ?? [],
      ),
    ]);
  } catch (error) {
    return {
      entries: [{ label: "oldest", versions: OLDEST }],
      skipped: `the npm registry could not be reached (${(error as Error).message})`,
    };
  }
  const resolves = new Resolver();
  const byVersion = new Map(inspectors.map((r) => [r.version, r]));
  const inspectorVersions = releases([...byVersion.keys()]);
  /** The newest Inspector not newer than `limit` whose peers resolve. */
  const inspectorFor = async (limit: string) => {
    for (const version of inspectorVersions.filter((v) => compare(v, limit) <= 0).reverse())
      if (await peersResolve(byVersion.get(version)!, resolves)) return version;
    throw new Error(`No @babylonjs/inspector release up to ${limit} has all its peers on the registry`);
  };
  const newest = core.at(-1)!;
  const entries: MatrixEntry[] = [{ label: "oldest", versions: OLDEST }];
  entries.push({ label: "newest", versions: { core: newest, loaders: loaders.at(-1)!, inspector: await inspectorFor(newest) } });
  // Between: a core release strictly between, preferring one that loaders and the Inspector were published at too.
  const inside = core.filter((v) => compare(v, OLDEST.core) > 0 && compare(v, newest) < 0);
  const shared = inside.filter((v) => loaders.includes(v) && inspectorVersions.includes(v));
  const pool = shared.length ? shared : inside;
  if (pool.length) {
    const middle = pool[Math.floor((pool.length - 1) / 2)]!;
    entries.push({
      label: "between",
      versions: { core: middle, loaders: newestUpTo(loaders, middle), inspector: await inspectorFor(middle) },
    });
  }
  return { entries, skipped: null };
}
