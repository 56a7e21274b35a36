/**
 * Depth maps as 16-bit greyscale PNGs (depth.png and the depth-map export), encoded by
 * sharp with the values exact, and with their encoding (src/api/depth-encoding.ts) stated
 * in the file's XMP description, which image tools show.
 */
import sharp from "sharp";
import { DEPTH_ENCODING_TEXT } from "../../../api/depth-encoding.ts";

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>' +
  `<rdf:li xml:lang="x-default">${escapeXml(`Depth map. ${DEPTH_ENCODING_TEXT}`)}</rdf:li>` +
  "</rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>";

/** `values`: width * height samples, top row first. */
export function encodeDepthPng(values: Uint16Array, width: number, height: number): Promise<Buffer> {
  return sharp(values, { raw: { width, height, channels: 1 } })
    .toColourspace("grey16")
    .withXmp(XMP)
    .png({ compressionLevel: 6 })
    .toBuffer();
}
