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
  const typed = (input: "lon" | "lat") => (_: unknown, d: { value?: number | null; displayValue?: string }) =>
    state.form.type(input, d.value != null ? String(d.value) : (d.displayValue ?? ""));
  const [lonProblem, latProblem] = [typedProblem(form, "lon"), typedProblem(form, "lat")];
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
        <Field
          label="Longitude"
          size="small"
          className={pane.grow}
          validationState={lonProblem ? "error" : "none"}
          validationMessage={lonProblem ?? undefined}
        >
          <SpinButton
            size="small"
            min={R.center_x.min}
            max={R.center_x.max}
            step={1}
            value={center ? Math.round(center.lon * 10) / 10 : null}
            displayValue={form.typed.lon}
            onChange={typed("lon")}
            data-testid="skybox-edit-lon"
          />
        </Field>
        <Field
          label="Latitude"
          size="small"
          className={pane.grow}
          validationState={latProblem ? "error" : "none"}
          validationMessage={latProblem ?? undefined}
        >
          <SpinButton
            size="small"
            min={R.center_y.min}
            max={R.center_y.max}
            step={1}
            value={center ? Math.round(center.lat * 10) / 10 : null}
            displayValue={form.typed.lat}
            onChange={typed("lat")}
            data-testid="skybox-edit-lat"
          />
        </Field>
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
