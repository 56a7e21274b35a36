import { Button, Caption1, Checkbox, Dropdown, Field, Input, Option, ProgressBar } from "@fluentui/react-components";
import { SaveRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import { applyProgressText } from "../../state/apply/apply-progress-text.ts";
import type { SaveStep } from "../../state/save-state.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** Widths the saved background may be resized to (never enlarged; sharp in the dev server). */
const WIDTHS: Record<number, string> = { 2048: "2K", 4096: "4K", 8192: "8K" };

/** A step of a save in words: its own for the bake and the write, the apply's for export requests and downloads. */
function stepText(step: SaveStep): string {
  if (step.stage === "baking") return `Baking the ${step.label} from the GPU…`;
  if (step.stage === "writing") return `Writing ${step.label} (${((step.bytes ?? 0) / 1e6).toFixed(1)} MB)…`;
  return applyProgressText({ stage: step.stage, detail: step.label, ...(step.part ? { part: step.part } : {}) });
}

/** The steps of the save in progress, each with its bar (indeterminate while its share is unknown). */
const SaveSteps: FunctionComponent<{ steps: readonly SaveStep[] }> = ({ steps }) => {
  const pane = usePaneStyles();
  return (
    <ul className={pane.list} data-testid="skybox-save-steps">
      {steps.map((step) => (
        <li key={step.label} data-testid="skybox-save-step" data-stage={step.stage} data-label={step.label}>
          <Caption1>{`${stepText(step)}${step.fraction !== undefined ? ` ${Math.round(step.fraction * 100)}%` : ""}`}</Caption1>
          <ProgressBar value={step.fraction} thickness="medium" />
        </li>
      ))}
    </ul>
  );
};

/**
 * "Save to project": the skybox in the scene written into the app's public folder as static
 * files, then the line of code that loads it. Only in the dev server (`/config` names its
 * route); hidden elsewhere.
 */
export const SaveSection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const connection = useSlice(state.connection);
  const apply = useSlice(state.apply);
  const v = useSlice(state.save);
  if (!connection.saveToProject || !apply.applied) return null;
  const problem = state.save.slugProblem;
  const folder = connection.saveToProjectFolder ?? "public/skyboxes";
  return (
    <div className={pane.section} data-testid="skybox-save">
      <div className={pane.row}>
        <Field label={`Folder (${folder}/…)`} size="small" className={pane.grow} validationMessage={problem ?? undefined}>
          <Input size="small" value={v.slug} onChange={(_, d) => state.save.setOptions({ slug: d.value })} data-testid="skybox-save-slug" />
        </Field>
        <Checkbox
          checked={v.includeHdr}
          label="Source .hdr too"
          onChange={(_, d) => state.save.setOptions({ includeHdr: d.checked === true })}
        />
      </div>
      <div className={pane.row}>
        <Field label="Background" size="small" className={pane.grow}>
          <Dropdown
            size="small"
            value={`${WIDTHS[v.backgroundWidth] ?? v.backgroundWidth} ${v.backgroundFormat === "webp" ? "WebP" : "JPEG"}`}
            selectedOptions={[`${v.backgroundWidth}`]}
            onOptionSelect={(_, d) => d.optionValue && state.save.setOptions({ backgroundWidth: Number(d.optionValue) })}
          >
            {Object.entries(WIDTHS).map(([width, name]) => (
              <Option key={width} value={width}>{`${name} wide (at most)`}</Option>
            ))}
          </Dropdown>
        </Field>
        <Checkbox
          checked={v.backgroundFormat === "webp"}
          label="WebP"
          onChange={(_, d) => state.save.setOptions({ backgroundFormat: d.checked === true ? "webp" : "jpeg" })}
        />
      </div>
      <div className={pane.row}>
        <Button
          size="small"
          icon={<SaveRegular />}
          disabled={v.saving || Boolean(problem) || Boolean(apply.applying)}
          onClick={() => void state.save.save()}
          data-testid="skybox-save-button"
        >
          {v.saving ? "Saving…" : "Save to project"}
        </Button>
        {v.exists && (
          <Button size="small" appearance="primary" onClick={() => void state.save.save(true)} data-testid="skybox-save-replace">
            {`Replace ${v.exists}`}
          </Button>
        )}
      </div>
      {v.saving && <SaveSteps steps={v.steps} />}
      {v.exists && <Caption1>{`${v.exists} exists already. Replace it, or choose another folder name.`}</Caption1>}
      {v.saved && (
        <div data-testid="skybox-saved" data-url={v.saved.url ?? ""}>
          <Caption1>{`Saved to ${v.saved.folder}. Load it with:`}</Caption1>
          <pre className={pane.code}>{v.saved.code}</pre>
          {v.saved.note && <Caption1>{v.saved.note}</Caption1>}
        </div>
      )}
      <ErrorView error={v.error} id="skybox-save-error" />
    </div>
  );
};
