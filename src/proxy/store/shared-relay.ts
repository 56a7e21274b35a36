/**
 * The webhook relay across instances: a status message accepted by any instance is
 * published on the store's `events` topic, and every instance (the one it landed on
 * included) hands it to its own event streams when the topic delivers it; so each stream
 * gets it exactly once, wherever the webhook landed. When the store says messages may
 * have been missed (its connection dropped), this instance ends its streams: browsers
 * reconnect, and their watches poll on both edges, so nothing missed stays missed.
 */
import type { EventRelay } from "../webhooks/event-relay.ts";
import type { ProxyStore } from "./proxy-store.ts";

export interface SharedRelay {
  /** Publishes a record (its JSON text) on its channel; resolves with how many received it (streams in one process, instances through Redis). */
  publish(channel: string, json: string): Promise<number>;
  close(): void;
}

const TOPIC = "events";

export function shareRelay(relay: EventRelay, store: ProxyStore): SharedRelay {
  const stop = store.subscribe(
    TOPIC,
    (message) => {
      const { channel, json } = JSON.parse(message) as { channel: string; json: string };
      return relay.publish(channel, json);
    },
    () => relay.close(),
  );
  return {
    publish: (channel, json) => store.publish(TOPIC, JSON.stringify({ channel, json })),
    close: stop,
  };
}
