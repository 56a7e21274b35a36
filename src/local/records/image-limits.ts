import { issue, type RuleIssue } from "../../api/rules/rule-issue.ts";
import { INPUT_IMAGE_LIMITS } from "../imagery/contract.ts";
import { brokenRules } from "./domain-error.ts";
import { readImageHeader } from "./image-header.ts";

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/**
 * Why an input image may not be used, from its size and header alone (nothing is decoded):
 * its format, its encoded size and its pixel size, each against INPUT_IMAGE_LIMITS.
 * @param field the request field that brought it, which the sentence names
 */
export function inputImageIssues(field: string, bytes: Uint8Array): RuleIssue[] {
  const { maxBytes, maxWidth, maxHeight } = INPUT_IMAGE_LIMITS;
  if (bytes.byteLength > maxBytes)
    return [issue(field, "image-bytes", `must be at most ${megabytes(maxBytes)} (is ${bytes.byteLength} bytes)`)];
  const header = readImageHeader(bytes);
  if (!header) return [issue(field, "image-format", "must be a PNG, JPEG or WebP image")];
  if (header.width > maxWidth || header.height > maxHeight)
    return [issue(field, "image-pixels", `must be at most ${maxWidth}×${maxHeight} pixels (is ${header.width}×${header.height})`)];
  return [];
}

/** Refuses an input image that breaks the limits, with a sentence naming the field and the limit. */
export function assertInputImage(field: string, bytes: Uint8Array): void {
  const issues = inputImageIssues(field, bytes);
  if (issues.length) throw brokenRules(issues);
}
