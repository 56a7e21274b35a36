/**
 * A process that only holds a render host (render-host.test.ts runs it): it starts the
 * render process, prints that process's id, renders once and then neither closes the
 * host nor waits for anything, so it ends on its own unless the idle render process keeps
 * it alive. With `wait`, it stays until killed instead (its render process must then go
 * with it).
 */
import { RenderHost } from "../../../../src/local/imagery/pipeline/render-host.ts";
import { smallRender } from "./small-render.ts";

const [dir, mode] = process.argv.slice(2);
const host = new RenderHost({ idleMs: 60_000 });
await host.ready();
console.log(JSON.stringify({ pid: host.pid }));
await host.generate(smallRender({ prompt: "desert canyon at noon" }), dir!);
console.log(JSON.stringify({ rendered: true }));
if (mode === "wait") setInterval(() => {}, 1000);
