/**
 * Reading an asset host's HTTP/1.1 answer (http1-head.ts, http1-body.ts): bodies cut at
 * their length or their last chunk whatever way the socket split them, framing taken off,
 * anything malformed refused, never guessed.
 */
import { describe, expect, test } from "vitest";
import { BodyFraming } from "../../src/proxy/http1-body.ts";
import { headEnd, MalformedAnswerError, parseHead } from "../../src/proxy/http1-head.ts";

/** Feeds `wire` to a framing in pieces of `step` bytes; returns the body and whether it came whole. */
function read(framing: BodyFraming, wire: string, step: number): { body: string; complete: boolean } {
  const bytes = Buffer.from(wire, "latin1");
  let body = "";
  for (let at = 0; at < bytes.length; at += step) framing.feed(bytes.subarray(at, at + step), (slice) => (body += slice.toString("latin1")));
  return { body, complete: framing.complete };
}

const CHUNKED = "5\r\nhello\r\n7;name=x\r\n, world\r\n0\r\nx-trailer: 1\r\n\r\nNEXT";

describe("HTTP/1.1 answer head", () => {
  test("status and fields, names lower-cased, a repeated field's values kept in order", () => {
    const wire = Buffer.from("HTTP/1.1 206 Partial Content\r\nContent-Type: image/jpeg\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Empty:\r\n\r\nbody");
    const end = headEnd(wire);
    expect(wire.subarray(end).toString()).toBe("body");
    expect(parseHead(wire.subarray(0, end - 4))).toEqual({ status: 206, headers: { "content-type": "image/jpeg", "set-cookie": ["a=1", "b=2"], "x-empty": "" } });
    expect(headEnd(Buffer.from("HTTP/1.1 200 OK\r\nA: b\r\n"))).toBe(-1);
  });

  test("no status line, a folded line or a nameless one is refused", () => {
    for (const head of ["ICY 200 OK", "HTTP/2 200", "HTTP/1.1 20 OK", "HTTP/1.1 200 OK\r\nA: b\r\n folded", "HTTP/1.1 200 OK\r\n: x", "HTTP/1.1 200 OK\r\nBad Name: x"]) {
      expect(() => parseHead(Buffer.from(head)), head).toThrow(MalformedAnswerError);
    }
  });
});

describe("HTTP/1.1 answer body", () => {
  test.each([1, 2, 3, 7, 1000])("a chunked body read %i bytes at a time: the data without its framing, whole at the last chunk, nothing after it", (step) => {
    expect(read(BodyFraming.of("GET", 200, { "transfer-encoding": "chunked" }), CHUNKED, step)).toEqual({ body: "hello, world", complete: true });
  });

  test("a chunked body cut short is not whole, even when the host closes", () => {
    const framing = BodyFraming.of("GET", 200, { "transfer-encoding": "gzip, chunked" });
    expect(read(framing, CHUNKED.slice(0, 20), 4).complete).toBe(false);
    expect(framing.closed()).toBe(false);
  });

  test("malformed chunk framing is refused", () => {
    for (const wire of ["zz\r\nhello\r\n", "5\r\nhelloXX\r\n", `${"1".repeat(9000)}\r\n`]) {
      expect(() => read(BodyFraming.of("GET", 200, { "transfer-encoding": "chunked" }), wire, 3), wire.slice(0, 20)).toThrow(MalformedAnswerError);
    }
  });

  test("a length: exactly that many bytes, whole only once they came", () => {
    const framing = BodyFraming.of("GET", 200, { "content-length": "5" });
    expect(read(framing, "hel", 2)).toEqual({ body: "hel", complete: false });
    expect(framing.closed()).toBe(false);
    expect(read(framing, "loEXTRA", 3)).toEqual({ body: "lo", complete: true });
    expect(framing.delimitsItself).toBe(true);
  });

  test("no body for HEAD, 204 and 304 whatever their length says", () => {
    for (const [method, status] of [["HEAD", 200], ["GET", 204], ["GET", 304]] as const) {
      expect(BodyFraming.of(method, status, { "content-length": "10" }).complete, `${method} ${status}`).toBe(true);
    }
  });

  test("neither length nor chunks: the body runs until the host closes, and does not announce a length", () => {
    const framing = BodyFraming.of("GET", 200, {});
    expect(read(framing, "all of it", 4)).toEqual({ body: "all of it", complete: false });
    expect(framing.closed()).toBe(true);
    expect(framing.delimitsItself).toBe(false);
    // A coding other than chunked last: the same.
    expect(BodyFraming.of("GET", 200, { "transfer-encoding": "gzip", "content-length": "3" }).delimitsItself).toBe(false);
  });

  test("a malformed or conflicting length is refused", () => {
    for (const length of ["-1", "1e3", "", "5, 6", "0x10"]) {
      expect(() => BodyFraming.of("GET", 200, { "content-length": length }), length).toThrow(MalformedAnswerError);
    }
    expect(read(BodyFraming.of("GET", 200, { "content-length": "3, 3" }), "abc", 1).complete).toBe(true);
  });
});
