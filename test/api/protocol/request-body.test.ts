import { describe, expect, test } from "vitest";
import { BodyFormatError, bodyKindOf, isFilePart, readFormEntries, readJsonObject } from "../../../src/api/protocol/request-body.ts";
import { dotnetMultipart, unityWwwForm } from "../../compat/wire-formats.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("request bodies read as the real service reads them", () => {
  test(".NET's unquoted names and quoted boundary, with a file part carrying filename*", () => {
    const wire = dotnetMultipart([
      ["prompt", "mars"],
      ["enhance_prompt", "True"],
      ["control_image", { bytes: bytes("PNGDATA"), filename: "icon.png" }],
    ]);
    const entries = readFormEntries(wire.body, wire.contentType);
    expect(entries.map(([name]) => name)).toEqual(["prompt", "enhance_prompt", "control_image"]);
    expect(entries.slice(0, 2).map(([, v]) => v)).toEqual(["mars", "True"]);
    const file = entries[2]![1];
    expect(isFilePart(file) && [new TextDecoder().decode(file.bytes), file.filename]).toEqual(["PNGDATA", "icon.png"]);
  });
  test("Unity's WWWForm: URL-encoded with '+' without files", () => {
    const wire = unityWwwForm([
      ["prompt", "alpine lake"],
      ["seed", "4"],
    ]);
    expect(bodyKindOf(wire.contentType)).toBe("urlencoded");
    expect(readFormEntries(wire.body, wire.contentType)).toEqual([
      ["prompt", "alpine lake"],
      ["seed", "4"],
    ]);
  });
  test("broken bodies are a BodyFormatError saying why, never a crash", () => {
    expect(() => readFormEntries(bytes("--zz\r\ngarbage"), "multipart/form-data; boundary=zz")).toThrow(BodyFormatError);
    expect(() => readFormEntries(bytes("x"), "multipart/form-data")).toThrow(/no boundary/);
    expect(() => readJsonObject(bytes("[1]"))).toThrow(/JSON object/);
    expect(() => readJsonObject(bytes("{nope"))).toThrow(/not valid JSON/);
    expect(bodyKindOf("application/json; charset=utf-8")).toBe("json");
    expect(bodyKindOf("text/plain")).toBeNull();
  });
});
