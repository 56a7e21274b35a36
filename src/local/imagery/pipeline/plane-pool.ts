/**
 * The big planes of renders (radiance, final image, hit distances, ...) as shared memory a
 * render takes and hands back once its files are encoded, so that the next render reuses
 * it rather than allocating its own.
 *
 * V8 counts no SharedArrayBuffer toward any thread's garbage collection (it cannot tell
 * which of the threads sharing one should pay for it), and its memory goes only once every
 * thread that saw it has collected it; a worker whose own garbage is small collects
 * rarely. Fresh buffers for every render would pile up until each thread happens to
 * collect; reused ones never pile up: the pool holds what the largest renders running at
 * once need, however many run one after the other.
 *
 * A plane is a view of the exact length asked for on a buffer at least that large (the
 * smallest free one that fits: a Model 4 render reuses a Model 3 render's buffers), and it
 * reads as zeros, as a new buffer does (some passes write only the pixels they touch).
 */
export class PlanePool {
  /** Buffers lent to no render, smallest first. */
  private readonly _free: SharedArrayBuffer[] = [];
  private readonly _lent = new Set<SharedArrayBuffer>();
  private _bytes = 0;
  private _reuses = 0;

  /** Bytes of all the buffers the pool has made (lent or free). */
  get bytes(): number {
    return this._bytes;
  }

  /** How many planes were served from a buffer a render handed back. */
  get reuses(): number {
    return this._reuses;
  }

  float32(length: number, capacityBytes = 0): Float32Array {
    return new Float32Array(this._take(length * 4, capacityBytes), 0, length);
  }

  uint8(length: number, capacityBytes = 0): Uint8Array {
    return new Uint8Array(this._take(length, capacityBytes), 0, length);
  }

  uint16(length: number): Uint16Array {
    return new Uint16Array(this._take(length * 2, 0), 0, length);
  }

  int32(length: number): Int32Array {
    return new Int32Array(this._take(length * 4, 0), 0, length);
  }

  /** Hands the planes' buffers back (each once, whatever the number of views on it); they must not be used after. */
  give(planes: Iterable<ArrayBufferView>): void {
    for (const plane of planes) {
      const buffer = plane.buffer as SharedArrayBuffer;
      if (!this._lent.delete(buffer)) continue;
      const at = this._free.findIndex((b) => b.byteLength >= buffer.byteLength);
      this._free.splice(at < 0 ? this._free.length : at, 0, buffer);
    }
  }

  /**
   * A buffer of at least max(bytes, capacityBytes) with its first `bytes` zeroed. Empty
   * planes get a buffer of their own (never pooled: it holds no memory).
   */
  private _take(bytes: number, capacityBytes: number): SharedArrayBuffer {
    if (bytes === 0) return new SharedArrayBuffer(0);
    const size = Math.max(bytes, capacityBytes);
    const at = this._free.findIndex((b) => b.byteLength >= size);
    let buffer: SharedArrayBuffer;
    if (at >= 0) {
      buffer = this._free.splice(at, 1)[0]!;
      new Uint8Array(buffer, 0, bytes).fill(0);
      this._reuses++;
    } else {
      buffer = new SharedArrayBuffer(size);
      this._bytes += size;
    }
    this._lent.add(buffer);
    return buffer;
  }
}
