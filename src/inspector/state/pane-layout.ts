import { Slice } from "./slice.ts";

export type PaneSection = "generate" | "batch" | "progress" | "apply" | "history" | "export";

/** Which sections of the pane are open: kept outside React, like everything else. */
export class PaneLayout extends Slice<{ open: PaneSection[] }> {
  public constructor() {
    super({ open: ["generate", "progress", "apply", "history"] });
  }

  /** Opens or closes sections. */
  public setOpen(open: PaneSection[]): void {
    this._set({ open });
  }

  /** Opens a section (when an action elsewhere fills it, e.g. Export from the history). */
  public reveal(section: PaneSection): void {
    if (!this.value.open.includes(section)) this._set({ open: [...this.value.open, section] });
  }
}
