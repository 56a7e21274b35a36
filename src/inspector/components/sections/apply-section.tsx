import { Button, Caption1, Field, ProgressBar, Slider, Switch } from "@fluentui/react-components";
import { ArrowClockwiseRegular, DeleteRegular, DismissRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import {
  DEPTH_SCALE,
  HDRI_MODES,
  MESH_QUALITIES,
  recordModel,
  resolutionsFor,
  type HdriModeKey,
  type MeshQualityKey,
} from "../../../api/index.ts";
import type { LightingResolution } from "../../state/apply/apply-state.ts";
import { applyProgressText } from "../../state/apply/apply-progress-text.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { byKey, ChoiceField } from "../fields/choice-field.tsx";
import { SaveSection } from "./save-section.tsx";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** What is applied and how: lighting, background, backdrop (depth scale, mesh quality) and sun light, intensity, rotation, HDRI mode and resolution. */
export const ApplySection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const v = useSlice(state.apply);
  const model = v.applied ? recordModel(v.applied) : 3;
  const resolutions = resolutionsFor("hdri-hdr", model).filter((r) => r.name !== "16K");
  const resolutionChoices = [{ value: "auto" as const, name: "Auto" }, ...resolutions.map((r) => ({ value: r.name, name: r.name }))];
  const set = state.apply.setSettings.bind(state.apply);
  return (
    <div className={pane.section} data-testid="skybox-apply">
      <div className={pane.row}>
        {v.applied?.thumb_url && <img className={pane.thumb} src={v.applied.thumb_url} alt="" />}
        <Caption1 className={pane.grow} data-testid="skybox-applied" data-applied={v.applied?.id ?? ""}>
          {v.applied
            ? `In the scene: ${v.applied.title || `#${v.applied.id}`}`
            : "No skybox applied yet: apply one from Progress or History."}
        </Caption1>
      </div>
      {v.applying && (
        <div data-testid="skybox-applying" data-stage={v.progress?.stage ?? ""}>
          <Caption1>{applyProgressText(v.progress)}</Caption1>
          <ProgressBar value={v.progress?.fraction} thickness="medium" />
          <Button size="small" appearance="subtle" icon={<DismissRegular />} onClick={() => state.apply.cancel()}>
            Stop
          </Button>
        </div>
      )}
      <div className={pane.row}>
        <Switch
          checked={v.lighting}
          label="Lighting"
          onChange={(_, d) => set({ lighting: d.checked })}
          data-testid="skybox-apply-lighting"
        />
        <Switch
          checked={v.background}
          label="Background"
          onChange={(_, d) => set({ background: d.checked })}
          data-testid="skybox-apply-background"
        />
        <Switch
          checked={v.backdrop}
          label="Backdrop mesh"
          onChange={(_, d) => set({ backdrop: d.checked })}
          data-testid="skybox-apply-backdrop"
        />
        <Switch checked={v.sun} label="Sun light" onChange={(_, d) => set({ sun: d.checked })} data-testid="skybox-apply-sun" />
      </div>
      {v.backgroundNote && <Caption1 data-testid="skybox-apply-background-size">{v.backgroundNote}</Caption1>}
      {v.sun && v.noSun !== null && <Caption1 data-testid="skybox-apply-no-sun">No sun added: {v.noSun}.</Caption1>}
      <Field label={`Intensity ${v.intensity.toFixed(2)}`} size="small">
        <Slider
          min={0}
          max={3}
          step={0.05}
          value={v.intensity}
          onChange={(_, d) => set({ intensity: d.value })}
          data-testid="skybox-apply-intensity"
        />
      </Field>
      <Field label={`Rotation ${Math.round(v.rotationDeg)}°`} size="small">
        <Slider
          min={-180}
          max={180}
          step={1}
          value={v.rotationDeg}
          onChange={(_, d) => set({ rotationDeg: d.value })}
          data-testid="skybox-apply-rotation"
        />
      </Field>
      <Field label={`Background blur ${v.blur.toFixed(2)}`} size="small">
        <Slider min={0} max={1} step={0.05} value={v.blur} onChange={(_, d) => set({ blur: d.value })} />
      </Field>
      {v.backdrop && (
        <div className={pane.row} data-testid="skybox-apply-backdrop-settings">
          <Field label={`Depth scale ${v.depthScale.toFixed(1)}`} size="small" className={pane.grow}>
            <Slider
              min={DEPTH_SCALE.min}
              max={DEPTH_SCALE.max}
              step={0.5}
              value={v.depthScale}
              onChange={(_, d) => set({ depthScale: d.value })}
              data-testid="skybox-apply-depth-scale"
            />
          </Field>
          {model === 3 && (
            <ChoiceField<MeshQualityKey>
              label="Mesh quality"
              className={pane.grow}
              options={byKey(MESH_QUALITIES)}
              value={v.meshQuality}
              onChange={(meshQuality) => set({ meshQuality })}
              testId="skybox-apply-mesh-quality"
            />
          )}
        </div>
      )}
      <div className={pane.row}>
        <ChoiceField<HdriModeKey>
          label="HDRI mode"
          className={pane.grow}
          options={byKey(HDRI_MODES)}
          value={v.hdriMode}
          onChange={(hdriMode) => set({ hdriMode })}
        />
        <ChoiceField<LightingResolution>
          label="Lighting resolution"
          className={pane.grow}
          options={resolutionChoices}
          value={v.resolution}
          onChange={(resolution) => set({ resolution })}
        />
      </div>
      <div className={pane.row}>
        <Button
          size="small"
          appearance={v.stale ? "primary" : "secondary"}
          icon={<ArrowClockwiseRegular />}
          disabled={!v.applied || Boolean(v.applying)}
          onClick={() => void state.apply.reapply()}
          data-testid="skybox-reapply"
        >
          {v.stale ? "Apply the changes" : "Apply again"}
        </Button>
        <Button size="small" appearance="subtle" icon={<DeleteRegular />} disabled={!v.applied} onClick={() => state.apply.remove()}>
          Remove from scene
        </Button>
      </div>
      <ErrorView error={v.error} id="skybox-apply-error" />
      <SaveSection state={state} />
    </div>
  );
};
