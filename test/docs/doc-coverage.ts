/**
 * The API reference's completeness, as TypeDoc sees it: with typedoc.json's settings
 * (`validation.notDocumented` over `requiredToBeDocumented`, `invalidLink`), what it would
 * warn about while generating `npm run docs`: an export of an entry point, or a method or
 * accessor of an exported class or interface, without a doc comment, or a `{@link}` that
 * names nothing.
 */
import { join } from "node:path";
import { Application, Logger, LogLevel, TSConfigReader, TypeDocReader } from "typedoc";
import { ROOT } from "./doc-files.ts";

/** A TypeDoc logger that keeps the messages instead of printing them. */
class CollectingLogger extends Logger {
  readonly messages: string[] = [];
  override log(message: string, level: LogLevel): void {
    if (level >= LogLevel.Warn) this.messages.push(message);
  }
}

/**
 * TypeDoc's warnings and errors for the project of `typedocJson` (its entry points, its
 * tsconfig), without writing anything.
 */
export async function referenceProblems(typedocJson = join(ROOT, "typedoc.json")): Promise<string[]> {
  // Type errors are `tsc --noEmit`'s to report (npm test runs it first); skipping them saves a whole type-check.
  const app = await Application.bootstrap({ options: typedocJson, skipErrorChecking: true }, [new TypeDocReader(), new TSConfigReader()]);
  const logger = new CollectingLogger();
  app.logger = logger;
  const project = await app.convert();
  if (!project) return [...logger.messages, "TypeDoc could not convert the project"];
  app.validate(project);
  return logger.messages;
}
