import { replacedInputs, typedPatch, type TypedInput, type TypedTexts } from "./number-inputs.ts";
import { Slice } from "../slice.ts";

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
  /** Text typed into the number inputs, kept as typed: a value that does not read is explained, not dropped (number-inputs.ts). */
  typed: TypedTexts;
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
  typed: {},
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
    const replaced = replacedInputs(patch);
    if (replaced.length === 0 || "typed" in patch) return this._set(patch);
    const typed = { ...this.value.typed };
    for (const input of replaced) delete typed[input];
    this._set({ ...patch, typed });
  }

  /**
   * Text typed into a number input: its value changes when the text reads within the API's
   * range; otherwise the text stays, and the form's problems say why it is refused.
   * @param input the input
   * @param text what is in it now
   */
  public type(input: TypedInput, text: string): void {
    this._set(typedPatch(this.value, input, text));
  }
}
