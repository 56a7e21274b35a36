import {
  Button,
  Caption1,
  Caption1Strong,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Tooltip,
} from "@fluentui/react-components";
import { ArrowExportRegular, BranchForkRegular, CopyRegular, DeleteRegular, NumberSymbolRegular, StopRegular } from "@fluentui/react-icons";
import { useState, type FunctionComponent, type ReactElement } from "react";
import { isRequestTerminal, type Generation } from "../../api/index.ts";
import type { SkyboxPaneState } from "../state/skybox-pane-state.ts";
import { usePaneStyles } from "./pane-styles.ts";
import { ApplyButton } from "./sections/progress-view.tsx";
import { StatusBadge } from "./status-badge.tsx";

const IconAction: FunctionComponent<{ label: string; icon: ReactElement; onClick?: () => void; disabled?: boolean; id: string }> = ({
  label,
  icon,
  onClick,
  disabled,
  id,
}) => (
  <Tooltip content={label} relationship="label">
    <Button size="small" appearance="subtle" icon={icon} onClick={onClick} disabled={disabled} data-testid={id} />
  </Tooltip>
);

export interface IHistoryItemProps {
  state: SkyboxPaneState;
  item: Generation;
  busy: "deleting" | "cancelling" | undefined;
}

/** One generation of the history: thumbnail, title, status, style, and what can be done with it. */
export const HistoryItem: FunctionComponent<IHistoryItemProps> = ({ state, item, busy }) => {
  const pane = usePaneStyles();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(String(item.id)).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  const complete = item.status === "complete";
  // Cancelled or failed: no image came of it, so there is nothing to remix or export (ever).
  const noResult = isRequestTerminal(item.status) && !complete;
  return (
    <li className={pane.card} data-testid="skybox-history-item" data-id={item.id} data-status={item.status}>
      <div className={pane.row}>
        {item.thumb_url ? <img className={pane.thumb} src={item.thumb_url} alt="" loading="lazy" /> : <div className={pane.thumb} />}
        <div className={pane.grow}>
          <Caption1Strong className={pane.ellipsis} title={item.prompt ?? ""}>
            {item.title || item.prompt || `#${item.id}`}
          </Caption1Strong>
          <div className={pane.row}>
            <StatusBadge status={item.status} />
            <Caption1 className={pane.muted}>{item.skybox_style_name ?? ""}</Caption1>
          </div>
          <Caption1 className={pane.muted}>{item.created_at ? new Date(item.created_at).toLocaleString() : ""}</Caption1>
        </div>
      </div>
      <div className={pane.row}>
        {complete && <ApplyButton state={state} record={item} />}
        {!noResult && (
          <>
            <IconAction
              label="Remix it (fills the Generate form)"
              icon={<BranchForkRegular />}
              disabled={!complete}
              onClick={() => state.remix(item)}
              id="skybox-history-remix"
            />
            <IconAction
              label="Export it"
              icon={<ArrowExportRegular />}
              disabled={!complete}
              onClick={() => state.exportFrom(item)}
              id="skybox-history-export"
            />
          </>
        )}
        <IconAction
          label={`Reuse seed ${item.seed ?? ""}`}
          icon={<NumberSymbolRegular />}
          disabled={item.seed == null}
          onClick={() => state.reuseSeed(item)}
          id="skybox-history-seed"
        />
        <IconAction
          label={copied ? "Copied" : `Copy id ${item.id}`}
          icon={<CopyRegular />}
          onClick={() => void copy()}
          id="skybox-history-copy"
        />
        {!isRequestTerminal(item.status) && (
          <IconAction
            label="Cancel"
            icon={<StopRegular />}
            disabled={Boolean(busy)}
            onClick={() => void state.history.cancel(item.id)}
            id="skybox-history-cancel"
          />
        )}
        <DeleteButton disabled={Boolean(busy)} title={item.title || `#${item.id}`} onConfirm={() => void state.history.remove(item.id)} />
      </div>
    </li>
  );
};

const DeleteButton: FunctionComponent<{ disabled: boolean; title: string; onConfirm: () => void }> = ({ disabled, title, onConfirm }) => (
  <Dialog>
    <DialogTrigger disableButtonEnhancement>
      <Tooltip content="Delete" relationship="label">
        <Button size="small" appearance="subtle" icon={<DeleteRegular />} disabled={disabled} data-testid="skybox-history-delete" />
      </Tooltip>
    </DialogTrigger>
    <DialogSurface>
      <DialogBody>
        <DialogTitle>Delete {title}?</DialogTitle>
        <DialogContent>It is removed from the account's history for good. A skybox already applied stays in the scene.</DialogContent>
        <DialogActions>
          <DialogTrigger disableButtonEnhancement>
            <Button appearance="secondary">Keep it</Button>
          </DialogTrigger>
          <DialogTrigger disableButtonEnhancement>
            <Button appearance="primary" onClick={onConfirm} data-testid="skybox-history-delete-confirm">
              Delete
            </Button>
          </DialogTrigger>
        </DialogActions>
      </DialogBody>
    </DialogSurface>
  </Dialog>
);
