/**
 * Asset hosts learned by any instance, known to all: a browser may read a record through
 * one instance and fetch its files through another. A newly learned origin is published to
 * every instance and kept in the store's `asset-hosts` index for instances that start
 * later. Learning stays synchronous (the passthrough checks a local set); sharing is best
 * effort, and an instance that missed it learns the origin when a record with it passes.
 */
import { AssetHosts } from "../assets/passthrough-urls.ts";
import type { ProxyStore } from "./proxy-store.ts";

const TOPIC = "asset-hosts";
const MAX_ORIGINS = 256;

export class SharedAssetHosts extends AssetHosts {
  private readonly _stop: () => void;

  constructor(private readonly _store: ProxyStore) {
    super(MAX_ORIGINS);
    this._stop = _store.subscribe(TOPIC, (origin) => this._learnLocally(origin));
    void _store.indexPage(TOPIC, 0, MAX_ORIGINS, true).then(
      ({ members }) => members.forEach((origin) => this._learnLocally(origin)),
      () => {},
    );
  }

  override learn(url: URL): boolean {
    if (!super.learn(url)) return false;
    void this._store.publish(TOPIC, url.origin).catch(() => {});
    void this._store.indexAdd(TOPIC, url.origin, Date.now()).catch(() => {});
    return true;
  }

  close(): void {
    this._stop();
  }

  private _learnLocally(origin: string): void {
    try {
      super.learn(new URL(origin));
    } catch {
      // not an origin: ignore
    }
  }
}
