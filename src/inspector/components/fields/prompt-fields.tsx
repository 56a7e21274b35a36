import { Caption1, Field, Textarea } from "@fluentui/react-components";
import type { FunctionComponent } from "react";
import { textLimitsOf, type TextLimit } from "../../state/form/generation-request.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** "123 / 600", red once over the style's limit. */
const Counter: FunctionComponent<{ limit: TextLimit; id: string }> = ({ limit: { length, max, over }, id }) => {
  const pane = usePaneStyles();
  return (
    <Caption1 className={over ? pane.danger : pane.muted} data-testid={id} data-over={over}>
      {max != null ? `${length} / ${max}` : `${length}`}
      {over && max != null ? ` (${length - max} too many for this style)` : ""}
    </Caption1>
  );
};

/** Prompt and negative text, each with a live counter against the chosen style's limits. */
export const PromptFields: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const form = useSlice(state.form);
  useSlice(state.styles);
  const limits = textLimitsOf(form, state.styles.byId(form.styleId));
  const label = form.mode === "edit" ? "What to put in the picked region" : "Prompt";
  return (
    <>
      <Field label={label} size="small" validationState={limits.prompt.over ? "error" : "none"}>
        <Textarea
          value={form.prompt}
          resize="vertical"
          rows={3}
          placeholder="alpine lake at dawn, mist over the water"
          onChange={(_, d) => state.form.set({ prompt: d.value })}
          data-testid="skybox-prompt"
        />
      </Field>
      <Counter limit={limits.prompt} id="skybox-prompt-counter" />
      <Field label="Negative text (what to leave out)" size="small" validationState={limits.negative.over ? "error" : "none"}>
        <Textarea
          value={form.negativeText}
          resize="vertical"
          rows={1}
          onChange={(_, d) => state.form.set({ negativeText: d.value })}
          data-testid="skybox-negative"
        />
      </Field>
      <Counter limit={limits.negative} id="skybox-negative-counter" />
    </>
  );
};
