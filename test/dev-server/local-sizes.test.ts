import { describe, expect, it } from "vitest";
import { DEV_LOCAL_DEFAULTS } from "../../src/dev-server/vite-plugin.ts";
import { localSizesLine } from "../../src/dev-server/local-sizes.ts";

describe("the dev server's line about its local service's sizes", () => {
  it("says the defaults render images at half size, how to get full size, and exports at the size they name", () => {
    const line = localSizesLine(DEV_LOCAL_DEFAULTS);
    expect(line).toContain("half size (Model 3 4096×2048, Model 4 2048×1024");
    expect(line).toContain("SKYBOX_LOCAL_IMAGE_SCALE=1 for full size");
    expect(line).toContain("exports at the size they name");
  });

  it("says full size when asked for it, and scaled exports when they are", () => {
    expect(localSizesLine({ ...DEV_LOCAL_DEFAULTS, imageScale: 1 })).toBe(
      "images at full size (Model 3 8192×4096, Model 4 4096×2048), exports at the size they name",
    );
    expect(localSizesLine({ imageScale: 0.25 })).toContain("exports at quarter the size they name");
  });
});
