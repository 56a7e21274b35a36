import { describe, expect, test } from "vitest";
import { applyProgressText } from "../../../../src/inspector/state/apply/apply-progress-text.ts";
import { backdropExport, exportTitle, lightingExport } from "../../../../src/scene/exports/part-exports.ts";
import { resolveParts } from "../../../../src/scene/apply-options.ts";

const parts = resolveParts({});

describe("the apply's progress in the pane's words", () => {
  test("an export request names the part it is for and the export: the backdrop's is the GLB mesh", () => {
    const glb = exportTitle(backdropExport(3, parts.backdrop!)!);
    expect(applyProgressText({ stage: "requesting-export", part: "backdrop", detail: glb })).toBe(
      "Requesting the backdrop export (GLB mesh, medium quality, depth scale 3)…",
    );
    const hdr = exportTitle(lightingExport(3, parts.lighting!)!);
    expect(applyProgressText({ stage: "requesting-export", part: "lighting", detail: hdr })).toBe(
      "Requesting the lighting export (HDRI HDR 1K, realism)…",
    );
    expect(applyProgressText({ stage: "requesting-export", part: "sun", detail: hdr })).toBe(
      "Requesting the sun export (HDRI HDR 1K, realism)…",
    );
  });

  test("other stages read as before; before any report the apply waits", () => {
    expect(applyProgressText(null)).toBe("Waiting for the skybox to complete…");
    expect(applyProgressText({ stage: "building-backdrop", detail: "GLB export" })).toBe("Building the backdrop (GLB export)…");
    expect(applyProgressText({ stage: "requesting-export" })).toBe("Requesting an export…");
  });
});
