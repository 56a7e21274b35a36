import { Button, Caption1, Caption1Strong, Field, Link, ProgressBar, Slider, Spinner } from "@fluentui/react-components";
import { ArrowDownloadRegular, ArrowExportRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import {
  DEPTH_SCALE,
  recordModel,
  type ExportTypeKey,
  type HdriModeKey,
  type MeshQualityKey,
  type ResolutionName,
} from "../../../api/index.ts";
import { optionsFor } from "../../state/export/export-form.ts";
import type { ExportJob } from "../../state/export/export-state.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { byKey, ChoiceField } from "../fields/choice-field.tsx";
import { formatElapsed, useElapsed, useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";
import { StatusBadge } from "../status-badge.tsx";

/** Every export type the skybox's model has, with only the options its type allows, progress and a download link. */
export const ExportSection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const v = useSlice(state.exports);
  const model = v.target ? recordModel(v.target) : 3;
  const types = state.exports.offeredTypes;
  const o = optionsFor(v.typeKey, model);
  const choose = state.exports.choose.bind(state.exports);
  return (
    <div className={pane.section} data-testid="skybox-export">
      <Caption1 data-testid="skybox-export-target">
        {v.target
          ? `Exporting ${v.target.title || `#${v.target.id}`} (Model ${model})`
          : "Apply a skybox, or pick Export on a history item."}
      </Caption1>
      <ChoiceField
        label="Type"
        options={byKey(types)}
        value={v.typeKey}
        onChange={(typeKey) => choose({ typeKey: typeKey as ExportTypeKey })}
        testId="skybox-export-type"
      />
      {o.resolutions.length > 0 && (
        <ChoiceField<ResolutionName>
          label="Resolution"
          options={o.resolutions.map((r) => ({ value: r.name, name: r.name }))}
          value={v.resolution}
          onChange={(resolution) => choose({ resolution })}
          testId="skybox-export-resolution"
        />
      )}
      {o.hdriModes.length > 0 && (
        <ChoiceField<HdriModeKey>
          label="HDRI mode"
          options={byKey(o.hdriModes)}
          value={v.hdriMode}
          onChange={(hdriMode) => choose({ hdriMode })}
          testId="skybox-export-hdri-mode"
        />
      )}
      {o.meshQualities.length > 0 && (
        <ChoiceField<MeshQualityKey>
          label="Mesh quality"
          options={byKey(o.meshQualities)}
          value={v.meshQuality}
          onChange={(meshQuality) => choose({ meshQuality })}
          testId="skybox-export-mesh-quality"
        />
      )}
      {o.depthScale && (
        <Field label={`Depth scale ${v.depthScale}`} size="small">
          <Slider
            min={o.depthScale.min}
            max={o.depthScale.max}
            step={1}
            value={v.depthScale ?? DEPTH_SCALE.default}
            onChange={(_, d) => choose({ depthScale: d.value })}
            data-testid="skybox-export-depth-scale"
          />
        </Field>
      )}
      <Button
        size="small"
        appearance="primary"
        icon={v.submitting ? <Spinner size="extra-tiny" /> : <ArrowExportRegular />}
        disabled={!v.target || v.submitting || types.length === 0}
        onClick={() => void state.exports.request()}
        data-testid="skybox-export-button"
      >
        Export
      </Button>
      <ErrorView error={v.error} id="skybox-export-error" />
      <ul className={pane.list}>
        {v.jobs.map((job) => (
          <ExportJobView key={job.id} job={job} />
        ))}
      </ul>
    </div>
  );
};

const ExportJobView: FunctionComponent<{ job: ExportJob }> = ({ job }) => {
  const pane = usePaneStyles();
  const elapsed = useElapsed(job.startedAt, job.endedAt);
  const running = job.endedAt === null;
  return (
    <li className={pane.card} data-testid="skybox-export-job" data-status={job.status}>
      <div className={pane.spread}>
        <Caption1Strong className={pane.ellipsis}>
          {job.typeName} · {job.skyboxTitle}
        </Caption1Strong>
        <StatusBadge status={job.status} />
      </div>
      <Caption1 className={pane.muted}>
        {formatElapsed(elapsed)}
        {running && job.queuePosition ? ` · position ${job.queuePosition} in the queue` : ""}
      </Caption1>
      {running && <ProgressBar thickness="medium" />}
      {job.status === "complete" && job.fileUrl && (
        <Link href={job.fileUrl} download target="_blank" rel="noreferrer" data-testid="skybox-export-link">
          <ArrowDownloadRegular /> Download {job.fileUrl.split("/").pop()?.split("?")[0]}
        </Link>
      )}
      <ErrorView error={job.error} />
    </li>
  );
};
