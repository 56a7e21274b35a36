import * as z from "zod/mini";
import { BATCH_STATUSES } from "../protocol/statuses.ts";
import { int, optionalText } from "./fields.ts";
import { Generation } from "./generation.ts";

/** The schema of a batch's status. */
export const BatchStatus = z.enum(BATCH_STATUSES);
/** A batch's status (see `BATCH_STATUSES`). */
export type BatchStatus = z.infer<typeof BatchStatus>;

/** One generation of a batch that failed before being queued (field types not shown). */
export const SubmissionError = z.looseObject({
  index: z.nullish(int),
  message: optionalText,
  status: z.nullish(z.union([z.number(), z.string()])),
});
export type SubmissionError = z.infer<typeof SubmissionError>;

/** A count the server may leave out or send as null: 0 then. */
const count = z.pipe(
  z.nullish(int),
  z.transform((v) => v ?? 0),
);

/** The schema of a batch record, as `/skybox/batch` routes answer. */
export const Batch = z.looseObject({
  id: int,
  obfuscated_id: z.string(),
  status: BatchStatus,
  user_id: z.nullish(int),
  quantity: int,
  successfully_submitted: count,
  completed: count,
  errored: count,
  aborted: count,
  pusher_channel: optionalText,
  pusher_event: optionalText,
  webhook_url: optionalText,
  submission_errors: z.pipe(
    z.nullish(z.array(SubmissionError)),
    z.transform((v) => v ?? []),
  ),
  created_at: optionalText,
  updated_at: optionalText,
  /** Present in submit and get-one responses, absent from list items. */
  generations: z.optional(z.array(Generation)),
});
/** A batch record: its status, counters and, when read by id, its generations. */
export type Batch = z.infer<typeof Batch>;
