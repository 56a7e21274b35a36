import { Badge, type BadgeProps } from "@fluentui/react-components";
import type { FunctionComponent } from "react";

const COLORS: Record<string, BadgeProps["color"]> = {
  pending: "informative",
  dispatched: "informative",
  processing: "brand",
  complete: "success",
  finalized: "success",
  error: "danger",
  abort: "warning",
};

/** A generation, export or batch status as a coloured badge. */
export const StatusBadge: FunctionComponent<{ status: string; id?: string }> = ({ status, id }) => (
  <Badge size="small" appearance="tint" color={COLORS[status] ?? "subtle"} data-testid={id} data-status={status}>
    {status === "abort" ? "cancelled" : status}
  </Badge>
);
