/** What one request told of the proxy: it answered (any HTTP status), or the network failed. */
export type ProxyReach = { reached: true } | { reached: false; why: string };

/**
 * A fetch that tells `onReach` whether each request reached the proxy. Only a failure of
 * the network counts as lost (the server is gone, the port refuses): an HTTP error is an
 * answer, and a request the caller aborted says nothing of the proxy.
 */
export function observedFetch(base: typeof fetch, onReach: (reach: ProxyReach) => void): typeof fetch {
  return async (input, init) => {
    try {
      const response = await base(input, init);
      onReach({ reached: true });
      return response;
    } catch (error) {
      if (!callerAborted(input, init, error)) onReach({ reached: false, why: (error as Error)?.message || String(error) });
      throw error;
    }
  };
}

function callerAborted(input: RequestInfo | URL, init: RequestInit | undefined, error: unknown): boolean {
  if ((error as Error)?.name === "AbortError") return true;
  return Boolean(init?.signal?.aborted || (typeof Request !== "undefined" && input instanceof Request && input.signal.aborted));
}
