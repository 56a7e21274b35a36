import { Button, Caption1, Caption1Strong, mergeClasses, ProgressBar, Tooltip } from "@fluentui/react-components";
import { CheckmarkRegular, DismissRegular, StopRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import type { Generation } from "../../../api/index.ts";
import { isEnded, type JobView } from "../../state/jobs/job-view.ts";
import type { ConnectionValue } from "../../state/connection-state.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { formatElapsed, useElapsed, useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";
import { StatusBadge } from "../status-badge.tsx";

/** The generations and batches under way (and the last ones that ended): live status, queue position, elapsed time, cancel. */
export const ProgressView: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const { jobs } = useSlice(state.jobs);
  const connection = useSlice(state.connection);
  const lostSince = connection.lost?.since ?? null;
  return (
    <div className={pane.section} data-testid="skybox-progress">
      <ConnectionLine connection={connection} />
      {jobs.length === 0 && <Caption1>Nothing under way. Generate a skybox above.</Caption1>}
      {jobs.map((job) => (
        <JobCard key={job.key} state={state} job={job} lostSince={lostSince} />
      ))}
    </div>
  );
};

/** How status updates arrive now, or that the proxy is gone (then nothing arrives until it is back). */
const ConnectionLine: FunctionComponent<{ connection: ConnectionValue }> = ({ connection }) => {
  const pane = usePaneStyles();
  const { lost, updates, pushState } = connection;
  const since = useElapsed(lost?.since ?? 0, lost ? null : 0);
  if (lost)
    return (
      <Caption1 className={pane.danger} data-testid="skybox-connection" data-state="lost">
        The proxy cannot be reached ({lost.why}) for {formatElapsed(since)}; asking again every 2 s. Jobs are followed again once it
        answers.
      </Caption1>
    );
  const [state, text] =
    updates === "poll"
      ? ["poll", "Status updates: polling (no push channel configured)"]
      : pushState !== null && pushState !== "connected"
        ? ["reconnecting", `Status updates: polled until the push channel is connected (${pushState})`]
        : ["push", "Status updates: pushed live, with a safety poll"];
  return (
    <Caption1 className={pane.muted} data-testid="skybox-connection" data-state={state}>
      {text}
    </Caption1>
  );
};

export interface IJobCardProps {
  state: SkyboxPaneState;
  job: JobView;
  /** When the proxy stopped answering (ms), or null. */
  lostSince: number | null;
  /** The card's test id. @default "skybox-job" */
  testId?: string;
}

/** One generation or batch: status, queue position, elapsed time, every status seen, Cancel and Apply. */
export const JobCard: FunctionComponent<IJobCardProps> = ({ state, job, lostSince, testId = "skybox-job" }) => {
  const pane = usePaneStyles();
  const ended = isEnded(job);
  const lost = lostSince !== null;
  // While the proxy is gone the job's status is unknown: its clock stops at the outage.
  const elapsed = useElapsed(job.startedAt, ended ? job.endedAt : lostSince);
  const queued = !ended && job.queuePosition != null && job.queuePosition > 0;
  return (
    <div
      className={pane.card}
      data-testid={testId}
      data-job={job.key}
      data-status={job.status}
      data-statuses={job.steps.map((s) => s.status).join(",")}
    >
      <div className={pane.spread}>
        <Caption1Strong className={pane.ellipsis}>{job.title}</Caption1Strong>
        <StatusBadge status={job.status} id="skybox-job-status" />
      </div>
      <Caption1 className={pane.muted}>
        {job.mode} #{job.id} · {formatElapsed(elapsed)}
        {queued ? ` · position ${job.queuePosition} in the queue` : ""}
        {job.source ? ` · via ${job.source}` : ""}
      </Caption1>
      {!ended && lost && (
        <Caption1 className={pane.danger} data-testid="skybox-job-lost">
          Status unknown while the proxy cannot be reached
        </Caption1>
      )}
      {!ended && !lost && <ProgressBar thickness="medium" />}
      <Caption1 className={pane.muted} data-testid="skybox-job-steps">
        {job.steps.map((s) => `${s.status} ${formatElapsed((s.at - job.startedAt) / 1000)}`).join(" → ")}
      </Caption1>
      {job.record?.enhanced_prompt && (
        <Caption1 data-testid="skybox-enhanced-prompt">Enhanced prompt: {job.record.enhanced_prompt}</Caption1>
      )}
      {job.batch && <BatchCounters state={state} job={job} />}
      <ErrorView error={job.error} />
      <div className={pane.row}>
        {!ended && (
          <Button
            size="small"
            icon={<StopRegular />}
            disabled={job.cancelling}
            onClick={() => void state.jobs.cancel(job.key)}
            data-testid="skybox-job-cancel"
          >
            {job.cancelling ? "Cancelling…" : "Cancel"}
          </Button>
        )}
        {job.kind === "generation" && job.status === "complete" && job.record && <ApplyButton state={state} record={job.record} />}
        {ended && (
          <Tooltip content="Remove from the list" relationship="label">
            <Button size="small" appearance="subtle" icon={<DismissRegular />} onClick={() => state.jobs.dismiss(job.key)} />
          </Tooltip>
        )}
      </div>
    </div>
  );
};

const BatchCounters: FunctionComponent<{ state: SkyboxPaneState; job: JobView }> = ({ state, job }) => {
  const pane = usePaneStyles();
  const b = job.batch!;
  return (
    <>
      <Caption1 data-testid="skybox-batch-counters" data-completed={b.completed} data-quantity={b.quantity}>
        {b.completed} of {b.quantity} complete · {b.errored} failed · {b.aborted} cancelled
        {b.submitted < b.quantity ? ` · ${b.submitted} submitted` : ""}
      </Caption1>
      {b.submissionErrors.map((e, i) => (
        <Caption1 key={i} className={pane.danger}>
          Refused: {e}
        </Caption1>
      ))}
      <ProgressBar value={(b.completed + b.errored + b.aborted) / Math.max(1, b.quantity)} thickness="medium" />
      <ul className={pane.list}>
        {b.generations.map((g) => (
          <li key={g.id} className={pane.spread} data-testid="skybox-batch-item" data-status={g.status}>
            <Caption1 className={mergeClasses(pane.grow, pane.ellipsis)}>
              #{g.id} seed {g.seed ?? "?"}
              {g.queue_position ? ` · queue ${g.queue_position}` : ""}
            </Caption1>
            <StatusBadge status={g.status} />
            {g.status === "complete" && <ApplyButton state={state} record={g} />}
          </li>
        ))}
      </ul>
    </>
  );
};

/** Applies a skybox to the scene with the Apply section's settings. */
export const ApplyButton: FunctionComponent<{ state: SkyboxPaneState; record: Generation }> = ({ state, record }) => {
  const { applied, applying } = useSlice(state.apply);
  const isApplied = applied?.id === record.id;
  return (
    <Button
      size="small"
      appearance={isApplied ? "subtle" : "primary"}
      icon={<CheckmarkRegular />}
      disabled={applying?.id === record.id || record.status !== "complete"}
      onClick={() => void state.applyRecord(record)}
      data-testid="skybox-apply-record"
      data-record={record.id}
    >
      {applying?.id === record.id ? "Applying…" : isApplied ? "Apply again" : "Apply"}
    </Button>
  );
};
