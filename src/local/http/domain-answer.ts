/**
 * The HTTP answer to an error thrown while serving a request: the domain's refusals
 * (records/domain-error.ts) translated here and only here, HTTP errors as they are.
 */
import { DomainError } from "../records/domain-error.ts";
import { HttpError, notFound, ruleError } from "./http-error.ts";

/** The answer for `error`; undefined for anything else (an internal error). */
export function httpAnswerOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  switch (error.kind) {
    case "not-found":
      return notFound(error.message);
    case "broken-rules":
      return ruleError([...error.issues]);
    case "insufficient-credits":
      return new HttpError(422, error.message);
  }
}
