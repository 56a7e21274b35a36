import * as z from "zod/mini";

/**
 * Settings of the API's push channel (spec "Push channel"), as a browser needs them: the
 * public app key and cluster of the real service, or the host and port of another
 * Pusher-protocol server such as the local service. No secret is ever part of them.
 */
export const PushSettings = z.object({
  /** The public Pusher app key (not a secret). */
  key: z.string(),
  /**
   * The Pusher cluster. Still required by pusher-js when `wsHost` is set, though ignored then.
   * @default "mt1"
   */
  cluster: z.optional(z.string()),
  /** Another Pusher-protocol server (the local service): its host. Leave out for the real service. */
  wsHost: z.optional(z.string()),
  /** Port of `wsHost`. */
  wsPort: z.optional(z.number()),
  /** `wss:` instead of `ws:` for `wsHost`. @default false with wsHost, true without */
  forceTLS: z.optional(z.boolean()),
  /** The app id the local service reports; not needed by a subscriber. */
  appId: z.optional(z.string()),
});
export type PushSettings = z.infer<typeof PushSettings>;
