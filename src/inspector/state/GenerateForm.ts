import { Slice } from "./Slice.ts";

/** What the Generate section makes: a new skybox, an edit of the current one, or a panorama from an image. */
export type PaneMode = "generate" | "edit" | "image-to-pano";

/** Longitude (−180..180, 0 = panorama middle) and latitude (−90..90, positive up), in degrees. */
export interface SkyAngles {
  lon: number;
  lat: number;
}

/** Everything typed or picked in the Generate and Batch sections. */
export interface GenerateFormValue {
  mode: PaneMode;
  prompt: string;
  negativeText: string;
  styleId: number | null;
  /** Model 4 variant (Standard or Enhanced). */
  variantId: number | null;
  seed: number | null;
  enhancePrompt: boolean;
  /** Model 4 only. */
  softLines: boolean;
  /** The skybox to remix (`remix_imagine_id`). */
  remix: { id: number; title: string } | null;
  initImage: File | null;
  /** 0..1, how closely the result follows the init image. */
  initStrength: number;
  /** Sent with `control_model: "remix"`. */
  controlImage: File | null;
  /** Edit: the centre picked in the viewport. */
  editCenter: SkyAngles | null;
  /** Edit: the field of view of the edited region, degrees. */
  editFov: number;
  /** Image to Pano: the uploaded image. */
  panoImage: File | null;
  /** Batch size. */
  quantity: number;
}

export const DEFAULT_FORM: GenerateFormValue = {
  mode: "generate",
  prompt: "",
  negativeText: "",
  styleId: null,
  variantId: null,
  seed: null,
  enhancePrompt: false,
  softLines: false,
  remix: null,
  initImage: null,
  initStrength: 0.5,
  controlImage: null,
  editCenter: null,
  editFov: 60,
  panoImage: null,
  quantity: 2,
};

/** The Generate form, kept outside React so that nothing typed is lost when the pane remounts. */
export class GenerateForm extends Slice<GenerateFormValue> {
  public constructor() {
    super(DEFAULT_FORM);
  }

  /**
   * Changes fields of the form.
   * @param patch the fields that change
   */
  public set(patch: Partial<GenerateFormValue>): void {
    this._set(patch);
  }
}
