import { expect, test } from "vitest";
import type { FeedListener } from "../../../src/status/feeds/feed.ts";
import { withProxiedAssets } from "../../../src/status/feeds/pushed-assets.ts";

test("pushed records reach the watch with their file URLs on the proxy, as the proxy maps its own answers", () => {
  const got: unknown[] = [];
  const live: boolean[] = [];
  const inner: FeedListener = { record: (r) => got.push(r), live: (up) => live.push(up) };
  const listener = withProxiedAssets(inner, "/skybox/assets");
  const record = {
    id: "e1",
    status: "complete",
    file_url: "http://127.0.0.1:8790/files/exports/e1/x.png?v=1",
    exports: { "hdri-hdr": "https://cdn.example/x.hdr" },
    pusher_channel: "export_status_update_e1",
  };
  listener.record(JSON.stringify(record));
  listener.record({ ...record, file_url: "" });
  listener.record("not json");
  listener.live(true);
  expect(got).toEqual([
    {
      ...record,
      file_url: "/skybox/assets/http/127.0.0.1:8790/files/exports/e1/x.png?v=1",
      exports: { "hdri-hdr": "/skybox/assets/https/cdn.example/x.hdr" },
    },
    { ...record, file_url: "", exports: { "hdri-hdr": "/skybox/assets/https/cdn.example/x.hdr" } },
    undefined,
  ]);
  expect(live).toEqual([true]);
});
