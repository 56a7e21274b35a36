import { Button, Caption1, Spinner, Tab, TabList, ToggleButton } from "@fluentui/react-components";
import { ChevronDownRegular, ChevronRightRegular, SparkleRegular } from "@fluentui/react-icons";
import { useState, type FunctionComponent } from "react";
import type { PaneMode } from "../../state/form/generate-form.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { AdvancedOptions } from "../fields/advanced-options.tsx";
import { EditOptions } from "../fields/edit-options.tsx";
import { ErrorView } from "../error-view.tsx";
import { FilePicker } from "../fields/file-picker.tsx";
import { GenerationOptions } from "../fields/generation-options.tsx";
import { useSlice } from "../hooks.ts";
import { LatestJob } from "../latest-job.tsx";
import { usePaneStyles } from "../pane-styles.ts";
import { PromptFields } from "../fields/prompt-fields.tsx";
import { StylePicker } from "../fields/style-picker.tsx";

const ACTION: Record<PaneMode, string> = { generate: "Generate", edit: "Generate edit", "image-to-pano": "Generate panorama" };

/** Generate, Edit and Image to Pano: style, prompt, options, the price, why it cannot be sent yet, and the job started last. */
export const GenerateSection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const jobs = useSlice(state.jobs);
  useSlice(state.styles);
  useSlice(state.apply);
  const [advanced, setAdvanced] = useState(false);
  const problems = state.problems;
  const cost = state.cost;
  return (
    <div className={pane.section} data-testid="skybox-generate">
      <TabList size="small" selectedValue={form.mode} onTabSelect={(_, d) => state.form.set({ mode: d.value as PaneMode })}>
        <Tab value="generate" data-testid="skybox-mode-generate">
          Generate
        </Tab>
        <Tab value="edit" data-testid="skybox-mode-edit">
          Edit
        </Tab>
        <Tab value="image-to-pano" data-testid="skybox-mode-pano">
          Image to Pano
        </Tab>
      </TabList>
      <StylePicker state={state} model4Only={form.mode !== "generate"} />
      {form.mode === "edit" && <EditOptions state={state} />}
      {form.mode === "image-to-pano" && (
        <FilePicker
          label="Image to turn into a panorama"
          file={form.panoImage}
          onChange={(panoImage) => state.form.set({ panoImage })}
          id="skybox-pano-image"
        />
      )}
      <PromptFields state={state} />
      <GenerationOptions state={state} />
      {form.mode === "generate" && (
        <>
          <ToggleButton
            size="small"
            appearance="transparent"
            checked={advanced}
            icon={advanced ? <ChevronDownRegular /> : <ChevronRightRegular />}
            style={{ justifyContent: "flex-start" }}
            onClick={() => setAdvanced(!advanced)}
            data-testid="skybox-advanced-toggle"
          >
            Advanced: remix, init image, control image
          </ToggleButton>
          {advanced && <AdvancedOptions state={state} />}
        </>
      )}
      {problems.length > 0 && (
        <ul className={pane.list} data-testid="skybox-problems">
          {problems.map((p) => (
            <li key={p}>
              <Caption1 className={pane.muted}>{p}</Caption1>
            </li>
          ))}
        </ul>
      )}
      <div className={pane.spread}>
        <Caption1 data-testid="skybox-cost">{cost != null ? `Costs ${cost} credit${cost === 1 ? "" : "s"}` : ""}</Caption1>
        <Button
          appearance="primary"
          size="small"
          icon={jobs.submitting ? <Spinner size="extra-tiny" /> : <SparkleRegular />}
          disabled={problems.length > 0 || jobs.submitting}
          onClick={() => void state.generate()}
          data-testid="skybox-generate-button"
        >
          {ACTION[form.mode]}
        </Button>
      </div>
      <ErrorView error={jobs.error} onDismiss={() => state.jobs.clearError()} id="skybox-generate-error" />
      <LatestJob state={state} />
    </div>
  );
};
