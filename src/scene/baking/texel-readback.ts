/**
 * The faces of a cube texture's mips read back from the GPU without stalling the page.
 * A synchronous `readPixels` waits on the main thread for every command queued before it (the
 * prefiltering, the frames the page draws meanwhile): on a software GPU, for seconds. Here
 * WebGL 2 copies the faces of several mips into one pixel-pack buffer, a fence marks the copy,
 * and the buffer is read in one call once the fence has passed, polled between tasks (that
 * call is still a round trip to the GPU process: on a software GPU, 50 to 200 ms while the
 * page draws); WebGPU's engine reads through a mapped buffer, asynchronous already. The floats become halves in chunks between which the
 * work yields once its slice is spent, so no task of it grows with the cube's size.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { ToHalfFloat } from "@babylonjs/core/Misc/halfFloat.js";
import { gpuPassed } from "../scheduling/gpu-fence.ts";
import { timedStep } from "../scheduling/step-timing.ts";
import type { WorkSlices } from "../scheduling/work-slices.ts";

/** What the WebGL engine exposes that the read needs (internal, present since Babylon 5). */
interface WebGL2Engine {
  _gl: WebGL2RenderingContext;
  _currentFramebuffer: WebGLFramebuffer | null;
  webGLVersion: number;
}

/** Most bytes one read-back holds: mips are read together up to it (a 256 cube's whole chain is 8 MiB of floats). */
const BATCH_BYTES = 16 * 1024 * 1024;

/**
 * The mips of a cube, grouped so each group is one read-back: consecutive mips up to
 * BATCH_BYTES of floats, at least one mip a group.
 * @param size face size of mip 0
 * @param count mips
 */
export function mipBatches(size: number, count: number): number[][] {
  const batches: number[][] = [];
  let bytes = Infinity;
  for (let mip = 0; mip < count; mip++) {
    const mipBytes = 6 * floatBytes(size, mip);
    if (bytes + mipBytes > BATCH_BYTES) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(mip);
    bytes += mipBytes;
  }
  return batches;
}

/**
 * The six faces of each of `mips`, RGBA halves, rows bottom first (as `readPixels` returns
 * them): `result[i][face]` for `mips[i]`.
 * @param texture a ready cube texture
 * @param mips the levels, read together
 * @param slices the time the conversion runs in
 * @param signal stops the wait for the GPU (rejects with its reason)
 */
export async function readMips(
  texture: BaseTexture,
  mips: readonly number[],
  slices: WorkSlices,
  signal: AbortSignal,
): Promise<Uint16Array[][]> {
  const internal = texture.getInternalTexture();
  if (!internal) throw new Error("The environment has no GPU texture to read back");
  const size = texture.getSize().width;
  const engine = internal.getEngine() as unknown as Partial<WebGL2Engine>;
  const floats =
    engine._gl && (engine.webGLVersion ?? 1) >= 2
      ? await readWebGL2(engine as WebGL2Engine, internal, size, mips, signal)
      : await readEngine(texture, mips, signal);
  const out: Uint16Array[][] = [];
  for (const [i, mip] of mips.entries()) {
    const length = floatBytes(size, mip) / 4;
    const faces: Uint16Array[] = [];
    for (const face of floats[i]!) faces.push(face instanceof Uint16Array ? face.slice(0, length) : await toHalves(face, length, slices));
    out.push(faces);
  }
  return out;
}

/** Bytes of one face of `mip` as float RGBA. */
function floatBytes(size: number, mip: number): number {
  const side = Math.max(1, size >> mip);
  return side * side * 16;
}

/** WebGL 2: one pixel-pack buffer for every face of `mips`, one fence, one read once the GPU passed it. */
async function readWebGL2(
  engine: WebGL2Engine,
  internal: InternalTexture,
  size: number,
  mips: readonly number[],
  signal: AbortSignal,
): Promise<Float32Array[][]> {
  const gl = engine._gl;
  const texture = internal._hardwareTexture?.underlyingResource as WebGLTexture | undefined;
  if (!texture) throw new Error("The environment has no GPU texture to read back");
  const total = mips.reduce((n, mip) => n + 6 * floatBytes(size, mip), 0);
  const framebuffer = gl.createFramebuffer();
  const buffer = gl.createBuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
  gl.bufferData(gl.PIXEL_PACK_BUFFER, total, gl.STREAM_READ);
  let offset = 0;
  for (const mip of mips) {
    const side = Math.max(1, size >> mip);
    for (let face = 0; face < 6; face++) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_CUBE_MAP_POSITIVE_X + face, texture, mip);
      gl.readPixels(0, 0, side, side, gl.RGBA, gl.FLOAT, offset);
      offset += floatBytes(size, mip);
    }
  }
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, engine._currentFramebuffer);
  gl.deleteFramebuffer(framebuffer);
  try {
    await gpuPassed(gl, signal);
    // One read of the whole buffer: each read is a round trip to the GPU process, which costs
    // about the same for a kilobyte as for megabytes (it waits for the GPU process's turn).
    const all = new Float32Array(total / 4);
    timedStep("bake-read", () => {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, all);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    });
    let at = 0;
    return mips.map((mip) =>
      Array.from({ length: 6 }, () => {
        const length = floatBytes(size, mip) / 4;
        const face = all.subarray(at, at + length);
        at += length;
        return face;
      }),
    );
  } finally {
    gl.deleteBuffer(buffer);
  }
}

/** Other engines: their own read (WebGPU maps a buffer; halves stay halves). */
async function readEngine(texture: BaseTexture, mips: readonly number[], signal: AbortSignal): Promise<(Float32Array | Uint16Array)[][]> {
  const out: (Float32Array | Uint16Array)[][] = [];
  for (const mip of mips) {
    const faces: (Float32Array | Uint16Array)[] = [];
    for (let face = 0; face < 6; face++) {
      signal.throwIfAborted();
      const pixels = await texture.readPixels(face, mip);
      if (!(pixels instanceof Float32Array) && !(pixels instanceof Uint16Array))
        throw new Error("The environment read back is not floating point RGBA");
      faces.push(pixels);
    }
    out.push(faces);
  }
  return out;
}

/** Values converted between looks at the clock (a fraction of a millisecond's work). */
const CHUNK = 16_384;

/** Floats to halves, in chunks, yielding whenever the slice is spent. */
async function toHalves(pixels: Float32Array, length: number, slices: WorkSlices): Promise<Uint16Array> {
  if (pixels.length < length) throw new Error("The environment read back is too short");
  const out = new Uint16Array(length);
  for (let start = 0; start < length; start += CHUNK) {
    await slices.next();
    const end = Math.min(length, start + CHUNK);
    for (let i = start; i < end; i++) out[i] = ToHalfFloat(pixels[i]!);
  }
  return out;
}
