/**
 * `useSlice` in a real React DOM root (Chromium): one render per change of the slice, none for
 * a slice no longer shown, the new slice's snapshot in the very render that switches to it
 * (no render shows the previous slice's state), and no observer left after unmounting.
 */
import { build } from "esbuild";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../../browser/harness.ts";

const PAGE = `
import { createElement, useState } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Slice } from "./src/inspector/state/slice.ts";
import { useSlice } from "./src/inspector/components/hooks.ts";

class Counter extends Slice {
  bump() { this._set({ n: this.value.n + 1 }); }
}
const a = new Counter({ name: "a", n: 0 });
const b = new Counter({ name: "b", n: 100 });
const renders = [];
let show;
function View() {
  const [slice, setSlice] = useState(a);
  show = setSlice;
  const v = useSlice(slice);
  renders.push(v.name + v.n);
  return createElement("p", null, v.name + v.n);
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
window.run = async () => {
  const root = createRoot(document.getElementById("root"));
  flushSync(() => root.render(createElement(View)));
  await settle();
  a.bump();
  await settle();
  flushSync(() => show(b));
  await settle();
  a.bump();
  b.bump();
  await settle();
  const text = document.getElementById("root").textContent;
  root.unmount();
  // Babylon removes an observer on a later task.
  await settle();
  return { renders, text, observersLeft: a.onChangedObservable.observers.length + b.onChangedObservable.observers.length };
};
`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

test("one render per change, the switched-to slice at once, no observer left", async () => {
  const bundle = await build({
    stdin: { contents: PAGE, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    format: "iife",
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const page = await browser.newPage();
  await page.setContent('<div id="root"></div>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const result = await page.evaluate(() => (window as unknown as { run(): Promise<unknown> }).run());
  expect(result).toEqual({ renders: ["a0", "a1", "b100", "b101"], text: "b101", observersLeft: 0 });
});
