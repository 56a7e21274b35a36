import { Button, Caption1, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { DismissRegular } from "@fluentui/react-icons";
import type { FunctionComponent } from "react";
import type { PaneError } from "../error-text.ts";

export interface IErrorViewProps {
  error: PaneError | null;
  onDismiss?: () => void;
  /** A test id for the message bar. */
  id?: string;
}

/** An API or scene error in words, with the service's own message below. Renders nothing without an error. */
export const ErrorView: FunctionComponent<IErrorViewProps> = ({ error, onDismiss, id }) => {
  if (!error) return null;
  const intent = error.kind === "aborted" ? "warning" : "error";
  return (
    <MessageBar intent={intent} layout="multiline" data-testid={id ?? "skybox-error"} data-error-kind={error.kind}>
      <MessageBarBody>
        <MessageBarTitle>{error.title}</MessageBarTitle>
        {error.message}
        {error.serverMessage && (
          <div>
            <Caption1>
              {error.status ? `Service (${error.status}): ` : "Details: "}
              {error.serverMessage}
            </Caption1>
          </div>
        )}
      </MessageBarBody>
      {onDismiss && (
        <MessageBarActions
          containerAction={<Button appearance="transparent" aria-label="Dismiss" icon={<DismissRegular />} onClick={onDismiss} />}
        />
      )}
    </MessageBar>
  );
};
