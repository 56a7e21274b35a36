import * as z from "zod";
import { BATCH_STATUSES } from "../protocol/statuses.ts";
import { int, optionalText } from "./fields.ts";
import { Generation } from "./generation.ts";

export const BatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** One generation of a batch that failed before being queued (field types not shown). */
export const SubmissionError = z.looseObject({
  index: int.nullish(),
  message: optionalText,
  status: z.union([z.number(), z.string()]).nullish(),
});
export type SubmissionError = z.infer<typeof SubmissionError>;

export const Batch = z.looseObject({
  id: int,
  obfuscated_id: z.string(),
  status: BatchStatus,
  user_id: int.nullish(),
  quantity: int,
  successfully_submitted: int.nullish().transform((v) => v ?? 0),
  completed: int.nullish().transform((v) => v ?? 0),
  errored: int.nullish().transform((v) => v ?? 0),
  aborted: int.nullish().transform((v) => v ?? 0),
  pusher_channel: optionalText,
  pusher_event: optionalText,
  webhook_url: optionalText,
  submission_errors: z.array(SubmissionError).nullish().transform((v) => v ?? []),
  created_at: optionalText,
  updated_at: optionalText,
  /** Present in submit and get-one responses, absent from list items. */
  generations: z.array(Generation).optional(),
});
export type Batch = z.infer<typeof Batch>;
