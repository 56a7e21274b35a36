import { expect } from "vitest";
import { createSkyboxClient, type SkyboxClient } from "../../src/api/index.ts";
import { statusRank, type StatusUpdate } from "../../src/status/index.ts";
import type { LocalProcess } from "../helpers/local-service.ts";

/** A fetch that counts what passes through it, as `METHOD /path`. */
export function countingFetch(inner: typeof fetch = fetch) {
  const calls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : (input as string));
    calls.push(`${request?.method ?? init?.method ?? "GET"} ${url.pathname}`);
    return inner(input, init);
  };
  return {
    fetch: counted,
    calls,
    /** Polls of one subject kind: GETs whose path matches. */
    count: (pattern: RegExp) => calls.filter((c) => c.startsWith("GET ") && pattern.test(c)).length,
  };
}

export const POLL_ROUTE = {
  generation: /\/imagine\/requests\//,
  export: /\/skybox\/export\/[0-9a-f]{32}$/,
  batch: /\/skybox\/batch\/\d+$/,
};

/** A client of the service whose requests are counted (no automatic retries: each poll is one request). */
export function countedClient(svc: LocalProcess, retry = 0): { client: SkyboxClient; counter: ReturnType<typeof countingFetch> } {
  const counter = countingFetch();
  return { client: createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry, fetch: counter.fetch }), counter };
}

/** Distinct statuses in the order first seen. */
export const statusesOf = (updates: readonly { status: string }[]) => updates.map((u) => u.status).filter((s, i, all) => all[i - 1] !== s);

/** No update moves a status backwards. */
export function expectForwardOnly(updates: readonly StatusUpdate[]): void {
  const ranks = updates.map((u) => statusRank(u.status));
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
}

/** Collects a watch's updates by iterating it to its end. */
export async function collect<U>(watch: AsyncIterable<U>): Promise<U[]> {
  const out: U[] = [];
  for await (const u of watch) out.push(u);
  return out;
}

/** Each generation's statuses across a batch's updates, in order. */
export function generationStatuses(updates: readonly { generations: readonly { id: number; status: string }[] }[]): Map<number, string[]> {
  const seen = new Map<number, string[]>();
  for (const u of updates)
    for (const g of u.generations) {
      const list = seen.get(g.id) ?? [];
      if (list.at(-1) !== g.status) list.push(g.status);
      seen.set(g.id, list);
    }
  return seen;
}
