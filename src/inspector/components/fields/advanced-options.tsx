import { Button, Caption1, Field, Label, mergeClasses, Slider } from "@fluentui/react-components";
import { BranchForkRegular, DismissRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { FilePicker } from "./file-picker.tsx";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** Remix (from the current skybox or a history item), init image with its strength, control image. */
export const AdvancedOptions: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const { applied } = useSlice(state.apply);
  return (
    <div className={pane.section} data-testid="skybox-advanced">
      <Label size="small">Remix</Label>
      {form.remix ? (
        <div className={pane.row}>
          <BranchForkRegular />
          <Caption1 className={mergeClasses(pane.grow, pane.ellipsis)} data-testid="skybox-remix-source">
            Remixing {form.remix.title}
          </Caption1>
          <Button
            size="small"
            appearance="subtle"
            aria-label="Stop remixing"
            icon={<DismissRegular />}
            onClick={() => state.form.set({ remix: null })}
          />
        </div>
      ) : (
        <Button
          size="small"
          icon={<BranchForkRegular />}
          disabled={!applied}
          onClick={() => applied && state.remix(applied)}
          data-testid="skybox-remix-current"
        >
          {applied ? "Remix the current skybox" : "Remix the current skybox (apply one first)"}
        </Button>
      )}
      <Label size="small">Init image (the result follows it)</Label>
      <FilePicker
        label="Choose image"
        file={form.initImage}
        onChange={(initImage) => state.form.set({ initImage })}
        id="skybox-init-image"
      />
      {form.initImage && (
        <Field label={`Strength ${form.initStrength.toFixed(2)}`} size="small">
          <Slider min={0} max={1} step={0.05} value={form.initStrength} onChange={(_, d) => state.form.set({ initStrength: d.value })} />
        </Field>
      )}
      <Label size="small">Control image (structure kept, control model "remix")</Label>
      <FilePicker
        label="Choose image"
        file={form.controlImage}
        onChange={(controlImage) => state.form.set({ controlImage })}
        id="skybox-control-image"
      />
    </div>
  );
};
