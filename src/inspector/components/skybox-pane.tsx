import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Badge, Caption1 } from "@fluentui/react-components";
import { useEffect, type FunctionComponent } from "react";
import type { PaneSection } from "../state/pane-layout.ts";
import type { SkyboxPaneState } from "../state/skybox-pane-state.ts";
import { ApplySection } from "./sections/apply-section.tsx";
import { BatchSection } from "./sections/batch-section.tsx";
import { ExportSection } from "./sections/export-section.tsx";
import { GenerateSection } from "./sections/generate-section.tsx";
import { HistorySection } from "./sections/history-section.tsx";
import { useSlice } from "./hooks.ts";
import { usePaneStyles } from "./pane-styles.ts";
import { ProgressView } from "./sections/progress-view.tsx";

const SECTIONS: { value: PaneSection; title: string; Body: FunctionComponent<{ state: SkyboxPaneState }> }[] = [
  { value: "generate", title: "Generate", Body: GenerateSection },
  { value: "batch", title: "Batch", Body: BatchSection },
  { value: "progress", title: "Progress", Body: ProgressView },
  { value: "apply", title: "Apply", Body: ApplySection },
  { value: "history", title: "History", Body: HistorySection },
  { value: "export", title: "Export", Body: ExportSection },
];

/** Which service answers: the offline local one or the real API. */
const UpstreamLine: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const c = useSlice(state.connection);
  const { jobs } = useSlice(state.jobs);
  const running = jobs.filter((j) => j.endedAt === null).length;
  return (
    <div className={pane.spread} style={{ padding: "4px 8px" }}>
      <Caption1 className={pane.muted} data-testid="skybox-upstream">
        {c.upstream === "local"
          ? "Local Skybox service (offline)"
          : c.upstream === "real"
            ? "Skybox API"
            : c.configProblem
              ? "Skybox API (no /config)"
              : "Connecting…"}
      </Caption1>
      {running > 0 && (
        <Badge size="small" color="brand">
          {running} running
        </Badge>
      )}
    </div>
  );
};

/** The Skybox pane: every section, on state kept outside React. */
export const SkyboxPane: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const { open } = useSlice(state.layout);
  useEffect(() => state.start(), [state]);
  return (
    <div className={pane.pane} data-testid="skybox-pane">
      <UpstreamLine state={state} />
      {/* Focusable, so the keyboard scrolls it as the wheel does (Page Down, arrows, Home, End). */}
      <div className={pane.scroller} tabIndex={0} role="region" aria-label="Skybox pane sections" data-testid="skybox-pane-scroll">
        <Accordion multiple collapsible openItems={open} onToggle={(_, d) => state.layout.setOpen(d.openItems as PaneSection[])}>
          {SECTIONS.map(({ value, title, Body }) => (
            <AccordionItem key={value} value={value} data-testid={`skybox-section-${value}`}>
              <AccordionHeader size="small" expandIconPosition="end">
                {title}
              </AccordionHeader>
              <AccordionPanel>
                <Body state={state} />
              </AccordionPanel>
            </AccordionItem>
          ))}
        </Accordion>
      </div>
    </div>
  );
};
