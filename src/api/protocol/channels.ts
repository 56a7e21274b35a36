/**
 * Names on the push channel (spec "Push channel"): each record has its own channel and every
 * status message is the event `status_update`. A record carries its `pusher_channel`; these
 * are the names the spec gives, for a record (or a webhook message) that does not.
 */

/** The event every status message is sent as, on the push channel and the proxy's relay. */
export const PUSH_EVENT = "status_update";

/** `status_update_<obfuscated_id>` */
export const generationChannel = (obfuscatedId: string) => `status_update_${obfuscatedId}`;

/** `export_status_update_<id>` */
export const exportChannel = (id: string) => `export_status_update_${id}`;

/** `batch_status_update_<obfuscated_id>` */
export const batchChannel = (obfuscatedId: string) => `batch_status_update_${obfuscatedId}`;
