/**
 * Many users behind one key, two proxy instances behind one Redis, the local service as
 * the upstream: each user sees, follows, cancels, deletes, remixes, edits and exports only
 * their own records, through either instance; administrators see everyone's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation, SkyboxClient } from "../../../src/api/index.ts";
import { waitFor } from "../../helpers/local-service.ts";
import { ADMIN, openStream, startDeployment, type Deployment } from "./deployment.ts";

let d: Deployment;
let alice: SkyboxClient;
let aliceOnB: SkyboxClient;
let bob: SkyboxClient;
let root: SkyboxClient;
const mine: Generation[] = [];
let bobs: Generation;

const prompt = (word: string) => ({ prompt: `${word} valley under the stars`, skybox_style_id: 2 });
const until = async (client: SkyboxClient, id: number, status: string) =>
  waitFor(async () => (await client.getGeneration(id)).status === status, 20_000, 100);
const statusOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

beforeAll(async () => {
  d = await startDeployment(2);
  [alice, aliceOnB, bob, root] = [d.client("alice", 0), d.client("alice", 1), d.client("bob", 1), d.client(ADMIN, 0)];
  for (const word of ["amber", "amber", "cobalt"]) mine.push(await alice.generate(prompt(word)));
  bobs = await bob.generate(prompt("amber"));
}, 60_000);
afterAll(() => d?.close());

describe("who may call", () => {
  test("the API, the event stream and assets need the user header (401 with a sentence); /config and /webhook do not", async () => {
    for (const path of ["/api/v1/skybox/styles", "/events?channel=status_update_x", "/assets/http/127.0.0.1/x.jpg"]) {
      const res = await d.as(null)(path);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/x-user header/);
    }
    expect((await d.as(null, 1)("/config")).status).toBe(200);
    expect((await d.deliver({ id: 999_999, obfuscated_id: "f".repeat(32), status: "pending" }, 1)).status).toBe(200);
    expect((await d.as("anyone")("/api/v1/skybox/styles")).status).toBe(200);
  });
});

describe("reading one record", () => {
  test("the owner reads it through either instance; another user gets 404 as if it did not exist; an admin reads it", async () => {
    const [g] = mine;
    expect((await aliceOnB.getGeneration(g!.id)).id).toBe(g!.id);
    expect((await aliceOnB.getGenerationByObfuscatedId(g!.obfuscated_id)).id).toBe(g!.id);
    for (const path of [`/api/v1/imagine/requests/${g!.id}`, `/api/v1/imagine/requests/obfuscated-id/${g!.obfuscated_id}`]) {
      expect(await statusOf(await d.as("bob", 1)(path))).toEqual({
        status: 404,
        body: { error: `Skybox ${path.split("/").pop()} not found` },
      });
    }
    expect((await root.getGeneration(g!.id)).id).toBe(g!.id);
  });

  test("another user can neither cancel nor delete it (404), and the record is untouched", async () => {
    const [g] = mine;
    expect((await d.as("bob")(`/api/v1/imagine/requests/${g!.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await d.as("bob", 1)(`/api/v1/imagine/deleteImagine/${g!.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await alice.getGeneration(g!.id)).status).not.toBe("abort");
  });

  test("a record with no known owner (made upstream directly) is shown to administrators only", async () => {
    const direct = (await (
      await fetch(`${d.svc.info.url}/api/v1/skybox`, {
        method: "POST",
        headers: { "x-api-key": d.svc.info.apiKey, "content-type": "application/json" },
        body: JSON.stringify(prompt("ghost")),
      })
    ).json()) as Generation;
    expect((await d.as("alice")(`/api/v1/imagine/requests/${direct.id}`)).status).toBe(404);
    expect((await root.getGeneration(direct.id)).id).toBe(direct.id);
    expect((await alice.history({ query: "ghost" })).totalCount).toBe(0);
    expect((await root.history({ query: "ghost" })).data.map((g) => g.id)).toEqual([direct.id]);
  });
});

describe("history", () => {
  test("holds the caller's own items, with totalCount and has_more consistent across pages and instances", async () => {
    const first = await alice.history({ limit: 2 });
    const second = await aliceOnB.history({ limit: 2, offset: 2 });
    expect([first.totalCount, first.has_more, first.data.length]).toEqual([3, true, 2]);
    expect([second.totalCount, second.has_more, second.data.length]).toEqual([3, false, 1]);
    expect([...first.data, ...second.data].map((g) => g.id)).toEqual(mine.map((g) => g.id).reverse());
    expect((await alice.history({ order: "ASC", limit: 1 })).data[0]!.id).toBe(mine[0]!.id);
    const theirs = await bob.history();
    expect([theirs.totalCount, theirs.has_more, theirs.data.map((g) => g.id)]).toEqual([1, false, [bobs.id]]);
  });

  test("filters keep the paging honest: a search matching both users' prompts counts the caller's only", async () => {
    const amber = await alice.history({ query: "amber", limit: 1 });
    expect([amber.totalCount, amber.has_more, amber.data.length]).toEqual([2, true, 1]);
    const rest = await alice.history({ query: "amber", limit: 1, offset: 1 });
    expect([rest.totalCount, rest.has_more, rest.data[0]!.id]).toEqual([2, false, mine[0]!.id]);
    expect((await bob.history({ query: "amber" })).data.map((g) => g.id)).toEqual([bobs.id]);
    expect((await bob.history({ imagine_id: mine[0]!.id })).totalCount).toBe(0);
  });

  test("an administrator sees everyone's history", async () => {
    const all = (await root.history({ query: "amber", limit: 100 })).data.map((g) => g.id);
    expect(all).toEqual(expect.arrayContaining([mine[0]!.id, mine[1]!.id, bobs.id]));
  });

  test("deleting through the proxy takes the record off its owner's list", async () => {
    const g = await alice.generate(prompt("doomed"));
    expect((await alice.history()).totalCount).toBe(4);
    expect((await aliceOnB.deleteGeneration(g.id)).success).toBeTruthy();
    const after = await alice.history();
    expect([after.totalCount, after.data.some((x) => x.id === g.id)]).toEqual([3, false]);
  });
});

describe("records naming other records", () => {
  test("another user's skybox cannot be remixed, edited or exported (404 as if missing); its owner can", async () => {
    const [g] = mine;
    await until(alice, g!.id, "complete");
    const remix = await d.as("bob")("/api/v1/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...prompt("copy"), remix_imagine_id: g!.id }),
    });
    expect(await statusOf(remix)).toEqual({ status: 404, body: { error: `remix_imagine_id: skybox ${g!.id} not found` } });
    const byHash = new URLSearchParams({ ...prompt("copy"), skybox_style_id: "2", remix_obfuscated_id: g!.obfuscated_id });
    expect(
      (
        await d.as("bob", 1)("/api/v1/skybox", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: byHash,
        })
      ).status,
    ).toBe(404);
    const edit = await d.as("bob")(`/api/v1/skybox?edit_skybox_id=${g!.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "add a moon", skybox_style_id: 101 }),
    });
    expect((await statusOf(edit)).status).toBe(404);
    expect(
      (
        await d.as("bob")("/api/v1/skybox/export", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ skybox_id: g!.obfuscated_id, type_id: 1 }),
        })
      ).status,
    ).toBe(404);
    expect((await alice.generate({ ...prompt("remixed"), remix_imagine_id: g!.id })).status).toBe("pending");
  });

  test("an export is owned by its creator: others get 404 on it and do not list it", async () => {
    const [g] = mine;
    const exported = await alice.requestExport({ skybox_id: g!.obfuscated_id, type_id: 1 });
    expect((await aliceOnB.getExport(exported.id)).id).toBe(exported.id);
    expect((await d.as("bob", 1)(`/api/v1/skybox/export/${exported.id}`)).status).toBe(404);
    expect((await d.as("bob")(`/api/v1/skybox/export/${exported.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await bob.exportHistory()).totalCount).toBe(0);
    expect((await alice.exportHistory()).data.map((e) => e.id)).toEqual([exported.id]);
  });
});

describe("batches", () => {
  test("a batch and its generations belong to its creator; another user's batch is 404", async () => {
    const batch = await bob.generateBatch({ ...prompt("batch"), quantity: 2 });
    expect(batch.generations).toHaveLength(2);
    expect((await d.client("bob", 0).getBatch(batch.id)).id).toBe(batch.id);
    expect(await statusOf(await d.as("alice", 1)(`/api/v1/skybox/batch/${batch.id}`))).toEqual({
      status: 404,
      body: { error: "Batch not found." },
    });
    expect((await d.as("alice")(`/api/v1/imagine/requests/${batch.generations![0]!.id}`)).status).toBe(404);
    expect((await bob.batches()).data.map((b) => b.id)).toEqual([batch.id]);
    expect((await alice.batches()).totalCount).toBe(0);
    expect((await bob.history({ limit: 100 })).data.map((g) => g.id)).toEqual(expect.arrayContaining(batch.generations!.map((g) => g.id)));
    const remix = await d.as("alice")("/api/v1/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...prompt("x"), remix_collection_id: batch.id }),
    });
    expect(await statusOf(remix)).toEqual({ status: 404, body: { error: `remix_collection_id: collection ${batch.id} not found` } });
  });
});

describe("events", () => {
  test("a user may follow their own records' channels only (404 as if the channel did not exist)", async () => {
    const [g] = mine;
    const url = (i: number) => `${d.instances[i]!.base}/events?channel=${g!.pusher_channel}`;
    const own = await openStream(url(1), { "x-user": "alice" });
    expect(own.status).toBe(200);
    own.close();
    const theirs = await openStream(url(0), { "x-user": "bob" });
    expect(theirs.status).toBe(404);
    const mixed = await openStream(`${url(0)}&channel=${bobs.pusher_channel}`, { "x-user": "bob" });
    expect(mixed.status).toBe(404);
    const admin = await openStream(url(0), { "x-user": ADMIN });
    expect(admin.status).toBe(200);
    admin.close();
  });
});

describe("cancelling pending generations", () => {
  test("DELETE /imagine/requests/pending cancels the caller's own only", async () => {
    const own = [await alice.generate(prompt("soon")), await aliceOnB.generate(prompt("soon"))];
    const other = await bob.generate(prompt("soon"));
    const answer = await statusOf(await d.as("alice", 1)("/api/v1/imagine/requests/pending", { method: "DELETE" }));
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(answer.body.cancelled).toBeGreaterThanOrEqual(2);
    for (const g of own) expect((await alice.getGeneration(g.id)).status).toBe("abort");
    expect((await bob.getGeneration(other.id)).status).not.toBe("abort");
    expect((await statusOf(await d.as("alice")("/api/v1/imagine/requests/pending", { method: "DELETE" }))).body).toEqual({
      error: "You don't have any pending generations to cancel.",
    });
  });
});
