import { PUSH_EVENT } from "../api/protocol/channels.ts";
import type { PusherServer } from "./pusher-server.ts";
import type { RecordViews } from "./records/record-views.ts";
import type { Accounts } from "./store/accounts.ts";
import type { BatchEntity, ExportEntity, GenerationEntity } from "./store/entities.ts";
import type { RecordStore } from "./store/record-store.ts";
import type { WebhookSender } from "./webhook-sender.ts";

/** Where status changes go, and what they are read from. */
export interface StatusEventsDeps {
  pusher: PusherServer;
  webhooks: WebhookSender;
  views: RecordViews;
  accounts: Accounts;
  store: RecordStore;
}

/**
 * Sends every status change of a generation, export or batch to the push channel and, when
 * the request named one, to its webhook (signed with the owner's API secret).
 */
export class StatusEvents {
  constructor(private readonly _d: StatusEventsDeps) {}

  generation(g: GenerationEntity): void {
    const record = this._d.views.generation(g);
    this.send(record.pusher_channel, record, g.webhookUrl, g.accountId);
    const batch = g.batchId != null ? this._d.store.batches.get(g.batchId) : undefined;
    if (batch) this.batch(batch);
  }

  export(e: ExportEntity): void {
    const record = this._d.views.exportRecord(e);
    this.send(record.pusher_channel, record, e.webhookUrl, e.accountId);
  }

  /** Sends the batch only when its status or counters changed since the last event. */
  batch(b: BatchEntity): void {
    const record = this._d.views.batch(b, false);
    const key = `${record.status}:${record.completed}:${record.errored}:${record.aborted}`;
    if (key === b.lastEvent) return;
    b.lastEvent = key;
    this._d.store.changed(b);
    this.send(record.pusher_channel, record, b.webhookUrl, b.accountId);
  }

  private send(channel: string, record: object, webhookUrl: string | null, accountId: number): void {
    this._d.pusher.publish(channel, PUSH_EVENT, record);
    const secret = this._d.accounts.byId(accountId)?.apiSecret;
    if (webhookUrl && secret) this._d.webhooks.send(webhookUrl, record, secret);
  }
}
