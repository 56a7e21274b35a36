import { Caption1, Field, Slider, SpinButton } from "@fluentui/react-components";
import { LocationRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import type { SkyboxPaneState } from "../state/SkyboxPaneState.ts";
import { useSlice } from "./hooks.ts";
import { usePaneStyles } from "./pane-styles.ts";

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Edit mode: the skybox edited, the centre picked in the viewport (or typed), the field of view. */
export const EditOptions: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const { applied } = useSlice(state.apply);
  const center = form.editCenter;
  const setCenter = (patch: Partial<{ lon: number; lat: number }>) => state.form.set({ editCenter: { lon: 0, lat: 0, ...center, ...patch } });
  return (
    <div className={pane.section} data-testid="skybox-edit-options">
      <Caption1>{applied ? `Editing ${applied.title || `#${applied.id}`}, the skybox in the scene.` : "Apply a skybox first: Edit changes the one in the scene."}</Caption1>
      <div className={pane.row}>
        <LocationRegular />
        <Caption1 className={pane.muted} data-testid="skybox-edit-center" data-lon={center?.lon ?? ""} data-lat={center?.lat ?? ""}>
          {center ? `Centre: longitude ${center.lon.toFixed(1)}°, latitude ${center.lat.toFixed(1)}°` : "Click the sky in the viewport to pick the centre."}
        </Caption1>
      </div>
      <div className={pane.row}>
        <Field label="Longitude" size="small" className={pane.grow}>
          <SpinButton size="small" min={-180} max={180} step={1} value={center ? Math.round(center.lon * 10) / 10 : null}
            onChange={(_, d) => setCenter({ lon: clamp(Number(d.value ?? d.displayValue ?? 0), -180, 180) })} />
        </Field>
        <Field label="Latitude" size="small" className={pane.grow}>
          <SpinButton size="small" min={-90} max={90} step={1} value={center ? Math.round(center.lat * 10) / 10 : null}
            onChange={(_, d) => setCenter({ lat: clamp(Number(d.value ?? d.displayValue ?? 0), -90, 90) })} />
        </Field>
      </div>
      <Field label={`Field of view ${Math.round(form.editFov)}°`} size="small">
        <Slider min={10} max={180} step={1} value={form.editFov} onChange={(_, d) => state.form.set({ editFov: d.value })} data-testid="skybox-edit-fov" />
      </Field>
    </div>
  );
};
