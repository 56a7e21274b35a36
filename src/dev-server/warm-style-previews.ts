/**
 * The local service renders a style's preview picture on the first request for it (a small
 * skybox of the style's look): on a fresh data directory the pane's style cards would stay
 * blank for seconds, all of them rendering at once when the pane first shows. The dev server
 * asks for every preview as soon as it starts, one at a time (a core, not all of them), so
 * by the time the page has loaded and the pane shows, they are files on disk.
 */
import { createSkyboxClient } from "../api/index.ts";

/** Where the local service answers, with its key (a `LocalUpstream`'s fields). */
export interface PreviewSource {
  url: string;
  apiKey: string;
}

/**
 * Requests each style's preview of both menus, in menu order, until done or `signal` aborts.
 * Failures are ignored: the pane asks for the previews itself anyway.
 * @param local the local service
 * @param signal stops the warm-up (the server closing)
 */
export async function warmStylePreviews(local: PreviewSource, signal: AbortSignal): Promise<void> {
  const client = createSkyboxClient({ baseUrl: local.url, apiKey: local.apiKey });
  try {
    const menus = await Promise.all([3, 4].map((model_version) => client.families({ model_version }, { signal })));
    const images = menus.flat().flatMap((family) => family.items.map((style) => style.image).filter((url): url is string => Boolean(url)));
    for (const url of images) {
      if (signal.aborted) return;
      await fetch(url, { signal }).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
    }
  } catch {
    // Nothing to do: the cards load their previews when shown.
  }
}
