/** A small ISO-BMFF (MP4) box reader for tests: no ffprobe on the machine. */

export interface Box {
  type: string;
  /** Payload, after the box header. */
  data: Buffer;
  start: number;
}

export function readBoxes(data: Buffer, base = 0): Box[] {
  const boxes: Box[] = [];
  let pos = 0;
  while (pos + 8 <= data.length) {
    let size = data.readUInt32BE(pos);
    const type = data.toString("latin1", pos + 4, pos + 8);
    let header = 8;
    if (size === 1) {
      size = Number(data.readBigUInt64BE(pos + 8));
      header = 16;
    } else if (size === 0) size = data.length - pos;
    boxes.push({ type, data: data.subarray(pos + header, pos + size), start: base + pos });
    pos += size;
  }
  return boxes;
}

/** The first box along a path of types, descending through containers. */
export function findBox(data: Buffer, path: string[]): Box | undefined {
  let boxes = readBoxes(data);
  let found: Box | undefined;
  for (const type of path) {
    found = boxes.find((b) => b.type === type);
    if (!found) return undefined;
    boxes = readBoxes(found.data);
  }
  return found;
}

export interface Mp4Summary {
  topLevel: string[];
  codec: string;
  width: number;
  height: number;
  trackWidth: number;
  trackHeight: number;
  frames: number;
  seconds: number;
}

export function summarizeMp4(file: Buffer): Mp4Summary {
  const stbl = ["moov", "trak", "mdia", "minf", "stbl"];
  const stsd = findBox(file, [...stbl, "stsd"])!;
  const entry = readBoxes(stsd.data.subarray(8))[0]!; // after version/flags and entry count
  const tkhd = findBox(file, ["moov", "trak", "tkhd"])!.data;
  const tkhdSize = tkhd[0] === 1 ? 88 : 76;
  const mdhd = findBox(file, ["moov", "trak", "mdia", "mdhd"])!.data;
  const [timescale, duration] =
    mdhd[0] === 1 ? [mdhd.readUInt32BE(20), Number(mdhd.readBigUInt64BE(24))] : [mdhd.readUInt32BE(12), mdhd.readUInt32BE(16)];
  const stsz = findBox(file, [...stbl, "stsz"])!.data;
  return {
    topLevel: readBoxes(file).map((b) => b.type),
    codec: entry.type,
    width: entry.data.readUInt16BE(24),
    height: entry.data.readUInt16BE(26),
    trackWidth: tkhd.readUInt32BE(tkhdSize) / 65536,
    trackHeight: tkhd.readUInt32BE(tkhdSize + 4) / 65536,
    frames: stsz.readUInt32BE(8),
    seconds: duration / timescale,
  };
}
