/**
 * Row-by-row writers of the two HDRI file formats, on top of the format codecs.
 */
import { ExrEncoder } from "../../formats/exr.ts";
import { rgbeHeader } from "../../formats/rgbe.ts";
import { encodeScanline, maxScanlineBytes } from "../../formats/rgbe-scanline.ts";
import { BufferedFile } from "../buffered-file.ts";

export interface HdriRowWriter {
  /** Appends the next row (width * 3 linear floats); the row may be reused once this returns. */
  writeRow(rgb: Float32Array): void | Promise<void>;
  /** Finishes the file (`complete`) or just releases it (after a failure). */
  close(complete: boolean): Promise<void>;
}

/** Radiance .hdr, new-style RLE scanlines. */
export class RgbeFileWriter implements HdriRowWriter {
  private readonly _file: BufferedFile;
  private readonly _planes: Uint8Array;
  private readonly _scanline: Uint8Array;

  constructor(
    path: string,
    private readonly _width: number,
    height: number,
  ) {
    this._file = new BufferedFile(path);
    this._file.write(rgbeHeader(_width, height));
    this._planes = new Uint8Array(_width * 4);
    this._scanline = new Uint8Array(maxScanlineBytes(_width));
  }

  writeRow(rgb: Float32Array): void {
    const end = encodeScanline(rgb, this._width, this._planes, this._scanline, 0);
    this._file.write(this._scanline.subarray(0, end));
  }

  async close(): Promise<void> {
    this._file.close();
  }
}

/** Blocks compressing on the thread pool at once: enough to keep both cores busy. */
const BLOCKS_IN_FLIGHT = 3;

/** OpenEXR, half RGB, ZIP blocks of 16 scanlines; the offset table is patched in at the end. */
export class ExrFileWriter implements HdriRowWriter {
  private readonly _file: BufferedFile;
  private readonly _encoder: ExrEncoder;
  private readonly _block: Float32Array;
  private readonly _offsets: number[] = [];
  private readonly _inFlight: Promise<Uint8Array>[] = [];
  private _rows = 0;
  private _firstLine = 0;

  constructor(
    path: string,
    private readonly _width: number,
    height: number,
  ) {
    this._file = new BufferedFile(path);
    this._encoder = new ExrEncoder(_width, height, "zip");
    this._block = new Float32Array(this._encoder.linesPerBlock * _width * 3);
    this._file.write(this._encoder.header);
    this._file.write(new Uint8Array(this._encoder.offsetTableBytes));
  }

  async writeRow(rgb: Float32Array): Promise<void> {
    this._block.set(rgb, this._rows * this._width * 3);
    if (++this._rows === this._encoder.linesPerBlock) await this._startBlock();
  }

  async close(complete: boolean): Promise<void> {
    try {
      if (complete) {
        if (this._rows > 0) await this._startBlock();
        while (this._inFlight.length) await this._writeOldest();
        this._file.patch(this._encoder.offsetTable(this._offsets), this._encoder.header.length);
      } else {
        await Promise.allSettled(this._inFlight);
      }
    } finally {
      this._file.close();
    }
  }

  /** Converts the gathered rows now and compresses them in the background, in order. */
  private async _startBlock(): Promise<void> {
    const block = this._encoder.encodeBlockAsync(this._block.subarray(0, this._rows * this._width * 3), this._firstLine);
    block.catch(() => {}); // awaited in order by _writeOldest; this only avoids an unhandled rejection meanwhile
    this._inFlight.push(block);
    this._firstLine += this._rows;
    this._rows = 0;
    if (this._inFlight.length > BLOCKS_IN_FLIGHT) await this._writeOldest();
  }

  private async _writeOldest(): Promise<void> {
    const bytes = await this._inFlight.shift()!;
    this._offsets.push(this._file.position);
    this._file.write(bytes);
  }
}
