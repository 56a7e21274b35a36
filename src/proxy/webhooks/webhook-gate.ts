/**
 * What the webhook receiver checks before and while it reads a body: a per-client token
 * bucket, the announced size, how many bodies are read at once, and a read cut off past the
 * limit. Anyone can POST to the webhook route; only the upstream can sign, so nothing is
 * read whole before the cheap checks pass, and memory stays under
 * `maxConcurrent × maxBodyBytes` however many requests arrive.
 */
import type { TokenDecision } from "../../api/limits/token-bucket.ts";
import type { WebhookLimits } from "../proxy-options.ts";
import { ProxyError } from "../proxy-error.ts";
import { readStreamLimited } from "../upstream/api-request-body.ts";
import type { ProxyRequest } from "../proxy-request.ts";

export class WebhookGate {
  private _reading = 0;

  /**
   * @param _limits the resolved `webhooks` option
   * @param _take takes a token of the client's webhook bucket (the proxy's store: shared by its instances)
   */
  constructor(
    private readonly _limits: Required<WebhookLimits>,
    private readonly _take: (client: string) => Promise<TokenDecision>,
  ) {}

  /** Bodies being read now. */
  get reading(): number {
    return this._reading;
  }

  /** Takes the client's token (a 429 with Retry-After when none is left); the upstream retries a refused webhook. */
  async admit(client: string): Promise<void> {
    const { ok, retryAfter } = await this._take(client);
    if (!ok)
      throw new ProxyError(
        429,
        `webhook: too many requests from this client, at most ${this._limits.perSecond} a second in bursts of ${this._limits.burst} (webhooks.perSecond); retry after ${retryAfter} s`,
        {
          "retry-after": String(retryAfter),
        },
      );
  }

  /** A 413 before reading when the announced body is over the limit. */
  checkSize(request: ProxyRequest): void {
    const announced = Number(request.headers.get("content-length"));
    if (announced > this._limits.maxBodyBytes) throw this._tooLarge(announced);
  }

  /** The body, read within the limit and within the number of bodies read at once. */
  async read(request: ProxyRequest): Promise<Uint8Array> {
    this.checkSize(request);
    if (this._reading >= this._limits.maxConcurrent)
      throw new ProxyError(
        503,
        `webhook: ${this._limits.maxConcurrent} webhook bodies are being read already (webhooks.maxConcurrent); retry shortly`,
        { "retry-after": "1" },
      );
    this._reading++;
    try {
      // Released, not cancelled: cancelling would tear down the socket before the 413 is written.
      const bytes = await readStreamLimited(request.body, this._limits.maxBodyBytes, "release");
      if (!bytes) throw this._tooLarge(null);
      return bytes;
    } finally {
      this._reading--;
    }
  }

  private _tooLarge(announced: number | null): ProxyError {
    const is = announced === null ? "" : ` (is ${announced})`;
    return new ProxyError(413, `webhook: the body must be at most ${this._limits.maxBodyBytes} bytes (webhooks.maxBodyBytes)${is}`);
  }
}
