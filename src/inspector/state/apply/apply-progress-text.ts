/**
 * The apply's progress in words, as the pane shows it: the stage, the part whose export is
 * requested ("Requesting the backdrop export"), and what it works on.
 */
import type { ApplyProgress, ApplyStage } from "../../../scene/index.ts";

const STAGES: Record<ApplyStage, string> = {
  waiting: "Waiting for the skybox to complete",
  "requesting-export": "Requesting an export",
  downloading: "Downloading",
  prefiltering: "Prefiltering the environment",
  "finding-sun": "Finding the sun",
  "building-backdrop": "Building the backdrop",
  ready: "Ready",
};

/**
 * One line for a progress report, e.g. "Requesting the backdrop export (GLB mesh, medium
 * quality, depth scale 3)…".
 * @param progress the last report, or null before the first
 */
export function applyProgressText(progress: ApplyProgress | null): string {
  const stage = progress?.stage ?? "waiting";
  const text = stage === "requesting-export" && progress?.part ? `Requesting the ${progress.part} export` : STAGES[stage];
  return `${text}${progress?.detail ? ` (${progress.detail})` : ""}…`;
}
