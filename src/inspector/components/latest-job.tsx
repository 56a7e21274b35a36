import { useEffect, useRef, type FunctionComponent } from "react";
import type { SkyboxPaneState } from "../state/skybox-pane-state.ts";
import { useSlice } from "./hooks.ts";
import { JobCard } from "./sections/progress-view.tsx";

/**
 * The job started last, right under the button that started it: its progress shows where
 * the user just clicked, whatever is open or scrolled below (Progress lists every job).
 */
export const LatestJob: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const { jobs } = useSlice(state.jobs);
  const connection = useSlice(state.connection);
  const job = jobs[0];
  const card = useRef<HTMLDivElement>(null);
  const shown = useRef(job?.key);
  useEffect(() => {
    // A new job (not the one already there when the pane mounted) is brought into view.
    if (job?.key === shown.current) return;
    shown.current = job?.key;
    card.current?.scrollIntoView({ block: "nearest" });
  }, [job?.key]);
  if (!job) return null;
  return (
    <div ref={card}>
      <JobCard state={state} job={job} lostSince={connection.lost?.since ?? null} testId="skybox-latest-job" />
    </div>
  );
};
