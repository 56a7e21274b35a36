/**
 * What the docs' code snippets use without declaring it: the app's own objects (its scene,
 * its Express app, its session lookup). Each snippet is type-checked as a module, so one
 * that declares a name of its own shadows the one here.
 */
declare const scene: import("@babylonjs/core").Scene;
declare const client: import("babylon-skybox").SkyboxClient;
declare const state: import("babylon-skybox/inspector").SkyboxPaneState;
/** A generation record the snippet has at hand. */
declare const skybox: import("babylon-skybox").Generation;
/** A skybox's numeric id or obfuscated id. */
declare const id: number | string;
/** An image the user picked (a `File` is a `Blob`). */
declare const file: Blob;
/** An image's bytes. */
declare const bytes: Uint8Array<ArrayBuffer>;
/** An Express or connect app. */
declare const app: { use(handler: import("babylon-skybox/proxy").NodeHandler): void };
/** The app's sign-in: who sent a request. */
declare const sessions: { userOf(request: Request): string | null };
/** The app's own rendering of a status update. */
declare function render(update: import("babylon-skybox").StatusUpdate): void;
