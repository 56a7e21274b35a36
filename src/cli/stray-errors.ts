/**
 * The last line of defence of a serving command (`local`, `proxy`). Every request, job,
 * timer and socket handler ends its own failures (a job ends in `error` with a sentence);
 * an error that still escapes is a bug. Node would end the process for it, taking every
 * other user's work along; here it is logged with this mark, and the process goes on.
 * Tests fail when the mark appears in a log.
 */
export const STRAY_ERROR_MARK = "internal error (a bug: please report it; the service goes on)";

/** Logs errors nobody handled instead of exiting; `scrub` removes secrets from the line. */
export function logStrayErrors(log: (line: string) => void, scrub: (text: string) => string = (t) => t): void {
  const report = (kind: string) => (error: unknown) =>
    log(scrub(`${STRAY_ERROR_MARK}, ${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  process.on("unhandledRejection", report("unhandled rejection"));
  process.on("uncaughtException", report("uncaught exception"));
}
