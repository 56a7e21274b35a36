import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSkybox } from "../../../../../src/local/imagery/export/export-skybox.ts";
import { focalPixels, SHORT_SIDE_FOV_DEG } from "../../../../../src/local/imagery/export/video/pan-frames.ts";
import { videoSize } from "../../../../../src/local/imagery/export/video/video-export.ts";
import { request } from "../export-request.ts";
import { summarizeMp4 } from "../mp4-boxes.ts";
import { makeStoredSkybox, SUN, type Fixture } from "../stored-skybox-fixture.ts";
import { removeTempDirs } from "../temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(512, 256);
});
afterAll(removeTempDirs);

const SCALE = 0.0625;
const ffmpeg = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;

/** Frame `index` decoded back to RGB by ffmpeg. */
function decodeFrame(path: string, index: number, width: number, height: number): Buffer {
  const rgb = execFileSync(ffmpeg, [
    "-v",
    "error",
    "-i",
    path,
    "-vf",
    `select=eq(n\\,${index})`,
    "-vframes",
    "1",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    "pipe:1",
  ]);
  expect(rgb.length).toBe(width * height * 3);
  return rgb;
}

describe("video exports", () => {
  it("sizes follow the shape and image scale, even and at least 64", () => {
    expect(videoSize("landscape", 1)).toEqual({ width: 1920, height: 1080 });
    expect(videoSize("portrait", 1)).toEqual({ width: 1080, height: 1920 });
    expect(videoSize("square", 1)).toEqual({ width: 1080, height: 1080 });
    expect(videoSize("landscape", SCALE)).toEqual({ width: 120, height: 68 });
    expect(videoSize("square", 0.01)).toEqual({ width: 64, height: 64 });
  });

  for (const [type, shape] of [
    ["video-landscape-mp4", "landscape"],
    ["video-portrait-mp4", "portrait"],
    ["video-square-mp4", "square"],
  ] as const) {
    it(`${type} is an H.264 MP4 (moov first) of a 6 s pan at the right size`, async () => {
      const result = await exportSkybox(request(fixture.dir, { type, imageScale: SCALE }));
      expect(result.contentType).toBe("video/mp4");
      expect(result.path.endsWith(".mp4")).toBe(true);
      const mp4 = summarizeMp4(readFileSync(result.path));
      const size = videoSize(shape, SCALE);
      expect(mp4.topLevel[0]).toBe("ftyp");
      expect(mp4.topLevel.indexOf("moov")).toBeLessThan(mp4.topLevel.indexOf("mdat")); // +faststart
      expect(mp4.codec).toBe("avc1");
      expect([mp4.width, mp4.height, mp4.trackWidth, mp4.trackHeight]).toEqual([size.width, size.height, size.width, size.height]);
      expect(mp4.frames).toBe(144);
      expect(mp4.seconds).toBeCloseTo(6, 1);
    });
  }

  it("starts at the panorama centre and turns right: a quarter turn in, the sun is ahead", async () => {
    const { width, height } = videoSize("landscape", SCALE);
    const path = (await exportSkybox(request(fixture.dir, { type: "video-landscape-mp4", imageScale: SCALE }))).path;
    const brightest = (rgb: Buffer): { x: number; y: number; value: number } => {
      let best = { x: 0, y: 0, value: -1 };
      for (let i = 0; i < width * height; i++)
        if (rgb[i * 3]! + rgb[i * 3 + 1]! > best.value)
          best = { x: i % width, y: Math.floor(i / width), value: rgb[i * 3]! + rgb[i * 3 + 1]! };
      return best;
    };
    // Frame 36 of 144 looks 90 deg right of the centre: at the sun (u = 0.75), 20 deg up.
    const sun = brightest(decodeFrame(path, 36, width, height));
    expect(sun.value).toBeGreaterThan(470);
    expect(Math.abs(sun.x + 0.5 - width / 2)).toBeLessThan(4);
    const expectedY = height / 2 - focalPixels(width, height) * Math.tan((SUN.elevationDeg * Math.PI) / 180);
    expect(Math.abs(sun.y + 0.5 - expectedY)).toBeLessThan(4);
    // Frame 0 looks at u = 0.5, 90 deg away from the sun: outside a 65/2 deg half-field.
    expect(SHORT_SIDE_FOV_DEG).toBeLessThan(90);
    expect(brightest(decodeFrame(path, 0, width, height)).value).toBeLessThan(470);
  });

  it("is deterministic", async () => {
    const req = request(fixture.dir, { type: "video-square-mp4", imageScale: SCALE });
    const a = readFileSync((await exportSkybox(req)).path);
    const b = readFileSync((await exportSkybox({ ...req, out: `${req.out}-again` })).path);
    expect(a.equals(b)).toBe(true);
  });
});
