import { Button, Caption1, Dropdown, Input, Option, Spinner } from "@fluentui/react-components";
import { ArrowClockwiseRegular, ChevronLeftRegular, ChevronRightRegular, SearchRegular } from "@fluentui/react-icons";
import { useEffect, useState, type FunctionComponent } from "react";
import { REQUEST_STATUSES, type RequestStatus } from "../../../api/index.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { HistoryItem } from "../history-item.tsx";
import { useDebounced, useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** The account's skyboxes: search, status and style filters, pages, and per item apply, remix, export, cancel, delete, copy id. */
export const HistorySection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const h = useSlice(state.history);
  useSlice(state.styles);
  const [text, setText] = useState(h.query);
  const query = useDebounced(text, 350);
  useEffect(() => {
    if (query !== state.history.value.query) void state.history.setFilters({ query });
  }, [query, state]);
  const styles = state.styles.all;
  const from = h.totalCount ? h.offset + 1 : 0;
  const to = h.offset + h.items.length;
  return (
    <div className={pane.section} data-testid="skybox-history">
      <Input
        size="small"
        contentBefore={<SearchRegular />}
        placeholder="Search prompts and titles"
        value={text}
        onChange={(_, d) => setText(d.value)}
        data-testid="skybox-history-search"
      />
      <div className={pane.row}>
        <Dropdown
          size="small"
          className={pane.grow}
          value={h.status ?? "Any status"}
          selectedOptions={[h.status ?? ""]}
          onOptionSelect={(_, d) => void state.history.setFilters({ status: (d.optionValue || null) as RequestStatus | null })}
          data-testid="skybox-history-status"
        >
          <Option value="">Any status</Option>
          {REQUEST_STATUSES.map((s) => (
            <Option key={s} value={s}>
              {s}
            </Option>
          ))}
        </Dropdown>
        <Dropdown
          size="small"
          className={pane.grow}
          value={styles.find((s) => s.id === h.styleId)?.name ?? "Any style"}
          selectedOptions={[String(h.styleId ?? "")]}
          onOptionSelect={(_, d) => void state.history.setFilters({ styleId: d.optionValue ? Number(d.optionValue) : null })}
        >
          <Option value="">Any style</Option>
          {styles.map((s) => (
            <Option key={s.id} value={String(s.id)}>
              {s.name}
            </Option>
          ))}
        </Dropdown>
      </div>
      <ErrorView error={h.error} onDismiss={() => void state.history.refresh()} id="skybox-history-error" />
      <ul className={pane.list}>
        {h.items.map((item) => (
          <HistoryItem key={item.id} state={state} item={item} busy={h.busy[item.id]} />
        ))}
      </ul>
      {!h.loading && h.items.length === 0 && (
        <Caption1 className={pane.muted}>No skyboxes{h.query || h.status || h.styleId ? " match these filters" : " yet"}.</Caption1>
      )}
      <div className={pane.spread}>
        <Button
          size="small"
          appearance="subtle"
          icon={<ChevronLeftRegular />}
          disabled={h.offset === 0 || h.loading}
          onClick={() => void state.history.previous()}
          aria-label="Previous page"
        />
        <Caption1 data-testid="skybox-history-range">
          {from}–{to} of {h.totalCount}
        </Caption1>
        {h.loading ? (
          <Spinner size="extra-tiny" />
        ) : (
          <Button
            size="small"
            appearance="subtle"
            icon={<ArrowClockwiseRegular />}
            onClick={() => void state.history.refresh()}
            aria-label="Reload"
          />
        )}
        <Button
          size="small"
          appearance="subtle"
          icon={<ChevronRightRegular />}
          disabled={!h.hasMore || h.loading}
          onClick={() => void state.history.next()}
          aria-label="Next page"
        />
      </div>
    </div>
  );
};
