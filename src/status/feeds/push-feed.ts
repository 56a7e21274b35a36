import type { Feed, FeedListener } from "./feed.ts";
import type { PushConnection } from "./push-connection.ts";
import type { ChannelRef } from "../tracked/tracked.ts";

/**
 * One watch's view of the shared push connection: it listens to the watch's channels and
 * is live while every one of them is subscribed.
 */
export function openPushFeed(connection: PushConnection, channels: readonly ChannelRef[], listener: FeedListener): Feed {
  const up = new Set<string>();
  let live = false;
  let closed = false;
  const update = () => {
    const now = !closed && up.size === channels.length;
    if (now === live) return;
    live = now;
    listener.live(now);
  };
  const stops = channels.map(({ channel, event }) =>
    connection.listen(channel, {
      event,
      record: (data) => !closed && listener.record(data),
      live(isUp) {
        if (isUp) up.add(channel);
        else up.delete(channel);
        update();
      },
    }),
  );
  return {
    get live() {
      return live;
    },
    close() {
      closed = true;
      live = false;
      stops.forEach((stop) => stop());
    },
  };
}
