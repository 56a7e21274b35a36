import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { findStyle, variantsOf } from "../catalogue/styles.ts";
import type { Imagery } from "../imagery/imagery.ts";
import { STORED_FILES } from "../imagery/contract.ts";

const PREVIEW = { width: 512, height: 256 };

/**
 * Style preview images, rendered on first request with the style's own look and prompt
 * and kept in `<data-dir>/styles/<id>.jpg`.
 */
export class StylePreviews {
  private readonly _inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly _dataDir: string,
    private readonly _imagery: Imagery,
  ) {}

  /** Ensures the preview of style `id` exists; false for an unknown style. */
  async ensure(id: number): Promise<boolean> {
    const style = findStyle(id);
    if (!style) return false;
    if (existsSync(join(this._dataDir, "styles", `${id}.jpg`))) return true;
    let job = this._inFlight.get(id);
    if (!job) {
      job = this.render(id).finally(() => this._inFlight.delete(id));
      this._inFlight.set(id, job);
    }
    await job;
    return true;
  }

  private async render(id: number): Promise<void> {
    const style = findStyle(id)!;
    const dir = join(this._dataDir, "styles", String(id));
    mkdirSync(dir, { recursive: true });
    await this._imagery.generate(
      {
        prompt: style.previewPrompt,
        negativeText: null,
        enhancePrompt: false,
        seed: id,
        look: style.look,
        model: style.model,
        variant: variantsOf(style).length ? "standard" : null,
        softLines: false,
        size: PREVIEW,
        thumbSize: PREVIEW,
        depthSize: { width: 64, height: 32 },
      },
      dir,
    );
    copyFileSync(join(dir, STORED_FILES.thumb), join(this._dataDir, "styles", `${id}.jpg`));
  }
}
