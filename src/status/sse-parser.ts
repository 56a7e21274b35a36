/** One server-sent event. */
export interface SseMessage {
  /** The `event:` field, `message` when there was none. */
  event: string;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/**
 * An incremental parser of `text/event-stream` (the WHATWG rules that matter here: lines
 * end with CRLF, LF or CR; comments start with a colon; blank lines dispatch; `retry:`
 * sets the reconnection delay). For reading a stream with fetch where `EventSource` is
 * missing (Node) or unsuitable.
 */
export class SseParser {
  /** The last `retry:` value the server sent, in milliseconds. */
  retryMs: number | null = null;
  private _buffer = "";
  private _event = "";
  private _data: string[] = [];
  private _skipLF = false;

  /** Takes the next chunk of text; returns the events it completed. */
  feed(text: string): SseMessage[] {
    if (!text) return [];
    // A CR that ended the last chunk may be the first half of a CRLF.
    if (this._skipLF && text.startsWith("\n")) text = text.slice(1);
    this._skipLF = text.endsWith("\r");
    this._buffer += text;
    const out: SseMessage[] = [];
    const lines = this._buffer.split(/\r\n|\r|\n/);
    this._buffer = lines.pop() ?? "";
    for (const line of lines) {
      const message = this._line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private _line(line: string): SseMessage | null {
    if (line === "") {
      const message = this._data.length ? { event: this._event || "message", data: this._data.join("\n") } : null;
      this._event = "";
      this._data = [];
      return message;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this._event = value;
    else if (field === "data") this._data.push(value);
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return null;
  }
}
