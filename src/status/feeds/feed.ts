/** What a source of status messages tells the watch that opened it. */
export interface FeedListener {
  /** A status message: a record, parsed or as JSON text, of any subject on the channels. */
  record(raw: unknown): void;
  /**
   * The feed came up (every channel subscribed, the stream open) or went down. Messages
   * sent while it was down are lost: the watch polls on both edges.
   */
  live(up: boolean): void;
}

/** A source of status messages for one watch: the push channel or the proxy's relay. */
export interface Feed {
  readonly live: boolean;
  close(): void;
}

/**
 * A feed whose code is loaded when it is first opened (a chunk of its own for bundlers that
 * split): down until it is loaded and comes up; closed before that, it never opens. A load
 * that fails leaves it down, and the watch polls.
 */
export function loadedFeed(load: Promise<() => Feed>): Feed {
  let feed: Feed | null = null;
  let closed = false;
  load.then(
    (open) => {
      if (!closed) feed = open();
    },
    () => undefined,
  );
  return {
    get live() {
      return feed?.live ?? false;
    },
    close() {
      closed = true;
      feed?.close();
    },
  };
}
