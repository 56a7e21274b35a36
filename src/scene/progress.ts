/** Stages an apply goes through, in order (some are skipped: a cached skybox downloads nothing). */
export type ApplyStage = "waiting" | "requesting-export" | "downloading" | "prefiltering" | "finding-sun" | "building-backdrop" | "ready";

/** The parts of a skybox that request an export of their own. */
export type ApplyPart = "lighting" | "backdrop" | "sun";

/** One step of an apply. */
export interface ApplyProgress {
  stage: ApplyStage;
  /**
   * The part whose export is being requested or downloaded (an export the lighting and the
   * sun share is named after the part that asked first, the lighting).
   */
  part?: ApplyPart;
  /** What the stage is working on, e.g. "hdri-hdr 1K" or "from cache". */
  detail?: string;
  /** 0..1 within the stage, when known (downloads with a Content-Length). */
  fraction?: number;
  /** At the "finding-sun" stage, when the sky has no sun: why, in words (`findSun`). */
  noSun?: string;
}

/** Where a step reports its progress. */
export type ProgressSink = (progress: ApplyProgress) => void;
