import * as z from "zod/mini";
import { flag, int } from "./fields.ts";

/** A paginated list: `{ data, totalCount, has_more }` (history, export history, batches). */
/* @__NO_SIDE_EFFECTS__ */
export function Page<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    totalCount: int,
    has_more: flag,
  });
}
/** One page of a history: its items, how many there are in all, and whether more follow. */
export interface PageOf<T> {
  data: T[];
  totalCount: number;
  has_more: boolean;
}
