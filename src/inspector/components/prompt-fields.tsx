import { Caption1, Field, Textarea } from "@fluentui/react-components";
import type { FunctionComponent } from "react";
import type { SkyboxPaneState } from "../state/SkyboxPaneState.ts";
import { useSlice } from "./hooks.ts";
import { usePaneStyles } from "./pane-styles.ts";

interface ICounterProps {
  length: number;
  max: number | null | undefined;
  id: string;
}

/** "123 / 600", red once over the style's limit. */
const Counter: FunctionComponent<ICounterProps> = ({ length, max, id }) => {
  const pane = usePaneStyles();
  const over = max != null && length > max;
  return (
    <Caption1 className={over ? pane.danger : pane.muted} data-testid={id} data-over={over}>
      {max != null ? `${length} / ${max}` : `${length}`}
      {over ? ` (${length - max} too many for this style)` : ""}
    </Caption1>
  );
};

/** Prompt and negative text, each with a live counter against the chosen style's limits. */
export const PromptFields: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const form = useSlice(state.form);
  useSlice(state.styles);
  const style = state.styles.byId(form.styleId);
  const promptMax = style?.["max-char"];
  const negativeMax = style?.["negative-text-max-char"];
  const label = form.mode === "edit" ? "What to put in the picked region" : "Prompt";
  return (
    <>
      <Field label={label} size="small" validationState={promptMax != null && form.prompt.length > promptMax ? "error" : "none"}>
        <Textarea
          value={form.prompt}
          resize="vertical"
          rows={3}
          placeholder="alpine lake at dawn, mist over the water"
          onChange={(_, d) => state.form.set({ prompt: d.value })}
          data-testid="skybox-prompt"
        />
      </Field>
      <Counter length={form.prompt.length} max={promptMax} id="skybox-prompt-counter" />
      <Field label="Negative text (what to leave out)" size="small" validationState={negativeMax != null && form.negativeText.length > negativeMax ? "error" : "none"}>
        <Textarea value={form.negativeText} resize="vertical" rows={1} onChange={(_, d) => state.form.set({ negativeText: d.value })} data-testid="skybox-negative" />
      </Field>
      <Counter length={form.negativeText.length} max={negativeMax} id="skybox-negative-counter" />
    </>
  );
};
