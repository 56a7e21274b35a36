import { describe, expect, it } from "vitest";
import { backgroundMagnification, backgroundSizeNote } from "../../../../src/inspector/state/apply/background-size.ts";

/*
 * The playground's camera (field of view 0.8) in a window 1000 pixels high shows a panorama
 * 4096 pixels wide, the half-size Model 3 image of development, about twice magnified: the
 * pane says what the background is and how to get full size.
 */

const playground = { fov: 0.8, renderHeight: 1000 };

describe("the background's size in the pane", () => {
  it("measures the magnification: a half-size Model 3 panorama about 1.8x, a full-size one about 0.9x", () => {
    expect(backgroundMagnification({ width: 4096, model: 3, ...playground })).toBeCloseTo(1.82, 1);
    expect(backgroundMagnification({ width: 8192, model: 3, ...playground })).toBeCloseTo(0.91, 1);
  });

  it("says a half-size background is half size, how much this camera magnifies it and how to get full size", () => {
    const note = backgroundSizeNote({ width: 4096, model: 3, ...playground });
    expect(note).toContain("half size (4096×2048 of Model 3's 8192×4096)");
    expect(note).toContain("magnifies about 1.8×");
    expect(note).toContain("SKYBOX_LOCAL_IMAGE_SCALE=1");
  });

  it("says nothing of a full-size background", () => {
    expect(backgroundSizeNote({ width: 8192, model: 3, ...playground })).toBeNull();
    expect(backgroundSizeNote({ width: 4096, model: 4, ...playground })).toBeNull();
  });
});
