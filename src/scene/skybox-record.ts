/**
 * The complete generation record of what the caller named: a record, a numeric id or an
 * obfuscated id, waited for through the status tracker while it is pending or processing.
 */
import type { Generation } from "../api/schemas/generation.ts";
import type { StatusTracker } from "../status/create-tracker.ts";
import type { ProgressSink } from "./progress.ts";

/** Resolves with the complete record; rejects when the generation ends `error` or `abort`. */
export async function completeRecord(
  skybox: number | string | Generation,
  tracker: StatusTracker,
  progress: ProgressSink,
  signal?: AbortSignal,
): Promise<Generation> {
  if (typeof skybox === "object" && skybox.status === "complete" && skybox.file_url) return skybox;
  progress({ stage: "waiting", detail: `skybox ${typeof skybox === "object" ? skybox.id : skybox}` });
  const watch = tracker.watchGeneration(skybox, {
    ...(signal ? { signal } : {}),
    onUpdate: (u) => progress({ stage: "waiting", detail: u.queuePosition ? `${u.status}, queue position ${u.queuePosition}` : u.status }),
  });
  let record: Generation;
  try {
    record = await watch.done;
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
  if (record.status !== "complete")
    throw new Error(
      `Skybox ${record.id} ended "${record.status}"${record.error_message ? `: ${record.error_message}` : ""}; there is nothing to apply`,
    );
  if (!record.file_url) throw new Error(`Skybox ${record.id} is complete but has no file_url`);
  return record;
}
