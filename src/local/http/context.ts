import type { Hono } from "hono";
import type { StatusEvents } from "../events.ts";
import type { ExportRunner } from "../lifecycle/export-runner.ts";
import type { GenerationRunner } from "../lifecycle/generation-runner.ts";
import type { RecordViews } from "../records/record-views.ts";
import type { Account, Accounts } from "../store/accounts.ts";
import type { RecordStore } from "../store/record-store.ts";
import type { PollLimit } from "./poll-limit.ts";

/** Switches an operator can flip at run time (admin routes). */
export interface ServiceSettings {
  /** Answer 503 to every generation and batch request. */
  generationsDisabled: boolean;
}

/** Everything the routes work with. */
export interface ServiceContext {
  dataDir: string;
  store: RecordStore;
  accounts: Accounts;
  views: RecordViews;
  generations: GenerationRunner;
  exports: ExportRunner;
  events: StatusEvents;
  pollLimit: PollLimit;
  settings: ServiceSettings;
  /** Logs at debug level (what the service ignored in a request); silent unless asked for. */
  debug: (line: string) => void;
}

export type AppEnv = { Variables: { account: Account; body: Record<string, unknown> } };
export type App = Hono<AppEnv>;
