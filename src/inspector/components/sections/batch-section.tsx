import { Button, Caption1, Field, MessageBar, MessageBarBody, SpinButton, Spinner } from "@fluentui/react-components";
import { ArrowRepeatAllRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import { MAX_BATCH_QUANTITY } from "../../../api/index.ts";
import { typedProblem } from "../../state/form/number-inputs.ts";
import type { SkyboxPaneState } from "../../state/skybox-pane-state.ts";
import { ErrorView } from "../error-view.tsx";
import { useSlice } from "../hooks.ts";
import { usePaneStyles } from "../pane-styles.ts";

/** A batch of the Generate form's request: quantity, its total cost and the plan's cap. */
export const BatchSection: FunctionComponent<{ state: SkyboxPaneState }> = ({ state }) => {
  const pane = usePaneStyles();
  const form = useSlice(state.form);
  const jobs = useSlice(state.jobs);
  useSlice(state.styles);
  const each = state.cost;
  const total = each != null ? each * form.quantity : null;
  const { cap, learned } = state.shownBatchCap;
  const problem = state.batchProblem;
  const problems = state.problems;
  return (
    <div className={pane.section} data-testid="skybox-batch">
      <Caption1 className={pane.muted}>Sends the Generate form {form.quantity} times, each with its own seed.</Caption1>
      <div className={pane.row}>
        <Field label="Quantity" size="small" validationState={typedProblem(form, "quantity") ? "error" : "none"}>
          <SpinButton
            size="small"
            min={1}
            max={MAX_BATCH_QUANTITY}
            value={form.quantity}
            displayValue={form.typed.quantity}
            onChange={(_, d) => state.form.type("quantity", d.value != null ? String(d.value) : (d.displayValue ?? ""))}
            data-testid="skybox-quantity"
          />
        </Field>
        <Caption1 className={pane.grow} data-testid="skybox-batch-cost">
          {total != null ? `${form.quantity} × ${each} = ${total} credits` : "Pick a style to see the cost"}
          <br />
          {cap === undefined
            ? "Plan cap: checked by the service"
            : cap === null
              ? "Plan cap: no batches"
              : `Plan cap: ${cap} credits per batch${learned ? " (as the service said)" : ""}`}
        </Caption1>
      </div>
      {problem && (
        <MessageBar intent="warning" layout="multiline" data-testid="skybox-batch-blocked">
          <MessageBarBody>{problem}</MessageBarBody>
        </MessageBar>
      )}
      <Button
        size="small"
        appearance="primary"
        icon={jobs.submitting ? <Spinner size="extra-tiny" /> : <ArrowRepeatAllRegular />}
        disabled={Boolean(problem) || problems.length > 0 || jobs.submitting}
        onClick={() => void state.generateBatch()}
        data-testid="skybox-batch-button"
      >
        Generate batch of {form.quantity}
      </Button>
      <ErrorView error={jobs.batchError} onDismiss={() => state.jobs.clearError("batchError")} id="skybox-batch-error" />
    </div>
  );
};
