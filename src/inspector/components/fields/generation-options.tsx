import { Button, Field, Input, Radio, RadioGroup, Switch, Tooltip } from "@fluentui/react-components";
import { ArrowShuffleRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import { SEED_MAX, generationCost, styleModel } from "../../../api/index.ts";
import { typedProblem } from "../../state/form/number-inputs.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** Variant (Model 4), seed, enhance prompt and soft lines. */
export const GenerationOptions: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  useSlice(state.styles);
  const style = state.styles.byId(form.styleId);
  const model4 = style ? styleModel(style) === 4 : false;
  const variants = style?.variants ?? [];
  const seedProblem = typedProblem(form, "seed");
  return (
    <>
      {model4 && form.mode === "generate" && variants.length > 0 && (
        <Field label="Variant" size="small">
          <RadioGroup
            layout="horizontal"
            value={form.variantId != null ? String(form.variantId) : ""}
            onChange={(_, d) => state.form.set({ variantId: Number(d.value) })}
          >
            {variants.map((v) => (
              <Radio
                key={v.id}
                value={String(v.id)}
                label={`${v.name} · ${generationCost({ model: 4 }, "generate", v.name)} credits`}
                data-testid={`skybox-variant-${v.name}`}
              />
            ))}
          </RadioGroup>
        </Field>
      )}
      <div className={pane.row}>
        <Field
          label="Seed"
          size="small"
          className={pane.grow}
          hint="Empty: a new one each time"
          validationState={seedProblem ? "error" : "none"}
          validationMessage={seedProblem ?? undefined}
        >
          {/* Text, not type="number": the browser would hand over "" for what it cannot read, and nothing could be explained. */}
          <Input
            size="small"
            inputMode="numeric"
            placeholder="random"
            value={form.typed.seed ?? (form.seed != null ? String(form.seed) : "")}
            onChange={(_, d) => state.form.type("seed", d.value)}
            data-testid="skybox-seed"
          />
        </Field>
        <Tooltip content="A new random seed" relationship="label">
          <Button
            size="small"
            icon={<ArrowShuffleRegular />}
            onClick={() => state.form.set({ seed: Math.floor(Math.random() * SEED_MAX) })}
          />
        </Tooltip>
      </div>
      <Switch
        checked={form.enhancePrompt}
        label="Enhance prompt (the service expands it; shown in Progress)"
        onChange={(_, d) => state.form.set({ enhancePrompt: d.checked })}
        data-testid="skybox-enhance"
      />
      {model4 && form.mode === "generate" && (
        <Switch
          checked={form.softLines}
          label="Soft lines (Model 4)"
          onChange={(_, d) => state.form.set({ softLines: d.checked })}
          data-testid="skybox-soft-lines"
        />
      )}
    </>
  );
};
