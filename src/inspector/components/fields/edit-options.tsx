import { Caption1, Field, Slider, SpinButton } from "@fluentui/react-components";
import { LocationRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import { NUMBER_RANGES as R } from "../../../api/index.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { typedProblem } from "../../state/form/number-inputs.ts";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** Edit mode: the skybox edited, the centre picked in the viewport (or typed), the field of view. */
export const EditOptions: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const { applied } = useSlice(state.apply);
  const center = form.editCenter;
  return (
    <div className={pane.section} data-testid="skybox-edit-options">
      <Caption1>
        {applied
          ? `Editing ${applied.title || `#${applied.id}`}, the skybox in the scene.`
          : "Apply a skybox first: Edit changes the one in the scene."}
      </Caption1>
      <div className={pane.row}>
        <LocationRegular />
        <Caption1 className={pane.muted} data-testid="skybox-edit-center" data-lon={center?.lon ?? ""} data-lat={center?.lat ?? ""}>
          {center
            ? `Centre: longitude ${center.lon.toFixed(1)}°, latitude ${center.lat.toFixed(1)}°`
            : "Click the sky in the viewport to pick the centre."}
        </Caption1>
      </div>
      <div className={pane.row}>
        <CentreField state={state} input="lon" />
        <CentreField state={state} input="lat" />
      </div>
      <Field label={`Field of view ${Math.round(form.editFov)}°`} size="small">
        <Slider
          min={10}
          max={180}
          step={1}
          value={form.editFov}
          onChange={(_, d) => state.form.set({ editFov: d.value })}
          data-testid="skybox-edit-fov"
        />
      </Field>
    </div>
  );
};

/** How each coordinate of the centre is labelled, bounded and tested. */
const CENTRE = {
  lon: { label: "Longitude", range: R.center_x, of: (c: { lon: number }) => c.lon },
  lat: { label: "Latitude", range: R.center_y, of: (c: { lat: number }) => c.lat },
} as const;

/** One coordinate of the edit's centre, typed (the viewport's pick fills it too). */
const CentreField: FunctionComponent<{ state: SkyboxPaneState; input: "lon" | "lat" }> = ({ state, input }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const { label, range, of } = CENTRE[input];
  const problem = typedProblem(form, input);
  const center = form.editCenter;
  return (
    <Field
      label={label}
      size="small"
      className={pane.grow}
      validationState={problem ? "error" : "none"}
      validationMessage={problem ?? undefined}
    >
      <SpinButton
        size="small"
        min={range.min}
        max={range.max}
        step={1}
        value={center ? Math.round(of(center) * 10) / 10 : null}
        displayValue={form.typed[input]}
        onChange={(_, d) => state.form.type(input, d.value != null ? String(d.value) : (d.displayValue ?? ""))}
        data-testid={`skybox-edit-${input}`}
      />
    </Field>
  );
};
