/**
 * video-landscape-mp4 / -portrait-mp4 / -square-mp4: H.264 (libx264, yuv420p, BT.709,
 * +faststart) of a 6-second 360 deg pan (pan-frames.ts), frames piped raw to ffmpeg.
 *
 * Sizes at image scale 1: landscape 1920x1080, portrait 1080x1920, square 1080x1080; other
 * scales multiply them (even, at least 64). 30 fps at scale >= 1, 24 fps below (tests and
 * previews): the duration stays 6 s.
 */
import { spawn } from "node:child_process";
import { requireOptional } from "../../../optional-packages.ts";
import type { ExportRequest, Size } from "../../contract.ts";
import { PanFrames, panWidth } from "./pan-frames.ts";
import { panoramaSize, readPanorama } from "../stored-skybox.ts";

export type VideoShape = "landscape" | "portrait" | "square";

const BASE_SIZES: Record<VideoShape, Size> = {
  landscape: { width: 1920, height: 1080 },
  portrait: { width: 1080, height: 1920 },
  square: { width: 1080, height: 1080 },
};

export const VIDEO_SECONDS = 6;

export function videoSize(shape: VideoShape, imageScale: number): Size {
  const even = (n: number): number => Math.max(64, 2 * Math.round((n * imageScale) / 2));
  return { width: even(BASE_SIZES[shape].width), height: even(BASE_SIZES[shape].height) };
}

export function videoFps(imageScale: number): number {
  return imageScale >= 1 ? 30 : 24;
}

export async function exportVideo(req: ExportRequest, shape: VideoShape, path: string, signal?: AbortSignal): Promise<void> {
  const { width, height } = videoSize(shape, req.imageScale);
  const fps = videoFps(req.imageScale);
  const frameCount = fps * VIDEO_SECONDS;
  const stored = await panoramaSize(req.from);
  // The pan's panorama is a multiple of the frame count wide; never more than the stored detail.
  let panoWidth = panWidth(width, height, frameCount);
  while (panoWidth > stored.width && panoWidth > frameCount) panoWidth -= frameCount;
  const pano = await readPanorama(req.from, { width: panoWidth, height: Math.max(1, Math.round(panoWidth / 2)) });
  const frames = new PanFrames(pano, { width, height, frameCount });
  await encodeH264(path, width, height, fps, frameCount, (i, out) => {
    signal?.throwIfAborted();
    frames.render(i, out);
  });
}

function ffmpegPath(): string {
  return requireOptional<{ path: string }>("@ffmpeg-installer/ffmpeg").path;
}

async function encodeH264(
  path: string,
  width: number,
  height: number,
  fps: number,
  frameCount: number,
  render: (index: number, out: Uint8Array) => void,
): Promise<void> {
  const args = [
    ...["-hide_banner", "-loglevel", "error", "-nostdin"],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0"],
    ...["-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20"],
    ...["-vf", "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"],
    ...["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"],
    ...["-movflags", "+faststart", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1"],
    ...["-f", "mp4", "-y", path],
  ];
  const child = spawn(ffmpegPath(), args, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  exited.catch(() => {}); // awaited below; this only keeps an early spawn error from going unhandled
  // A dying ffmpeg breaks the pipe: the failed write rejects below, and stderr says why.
  child.stdin.on("error", () => {});
  let pipeBroken = false;
  const write = (buffer: Buffer): Promise<void> =>
    new Promise((resolve, reject) =>
      child.stdin.write(buffer, (error) => {
        if (error) pipeBroken = true;
        return error ? reject(error) : resolve();
      }),
    );
  // Two frame buffers: render the next while the previous drains into the pipe.
  const buffers = [Buffer.alloc(width * height * 3), Buffer.alloc(width * height * 3)];
  let pending: Promise<void> = Promise.resolve();
  try {
    for (let i = 0; i < frameCount; i++) {
      const buffer = buffers[i % 2]!;
      render(i, buffer);
      await pending;
      pending = write(buffer);
    }
    await pending;
  } catch (error) {
    const ffmpegDied = pipeBroken; // read before kill() breaks the pipe on purpose
    pending.catch(() => {});
    // Its output is thrown away: stop it at once, and close our end of its input, so that
    // 'close' does not wait on a pipe nobody drains.
    child.stdin.destroy();
    child.kill("SIGKILL");
    await exited.catch(() => {});
    if (!ffmpegDied) throw error; // cancelled, or a rendering error
    throw new Error(`ffmpeg failed (${(error as Error).message}): ${stderr.trim()}`, { cause: error });
  } finally {
    child.stdin.end();
  }
  const code = await exited;
  if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`);
}
