/**
 * Waiting for the GPU without blocking the page: a WebGL 2 fence after the commands queued so
 * far, asked between tasks whether the GPU has passed it. A synchronous read-back would wait
 * the same time on the main thread, and `gl.finish()` does not wait in Chrome's GPU process.
 */

/** How often a fence is asked whether the GPU has passed it. */
const POLL_MS = 4;

/**
 * Resolves once the GPU has run every command queued so far: a fence, asked between tasks
 * (a zero timeout never blocks) until it has signalled.
 * @param gl the context
 * @param signal stops the wait (rejects with its reason)
 */
export function gpuPassed(gl: WebGL2RenderingContext, signal?: AbortSignal): Promise<void> {
  const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!fence) return Promise.reject(new Error("The GPU gave no fence to wait for"));
  gl.flush();
  return new Promise<void>((resolve, reject) => {
    const poll = () => {
      if (signal?.aborted) return finish(signal.reason);
      const status = gl.clientWaitSync(fence, 0, 0);
      if (status === gl.WAIT_FAILED) return finish(new Error("The GPU could not be waited for (context lost?)"));
      if (status === gl.TIMEOUT_EXPIRED) return void setTimeout(poll, POLL_MS);
      finish();
    };
    const finish = (error?: unknown) => {
      gl.deleteSync(fence);
      if (error === undefined) resolve();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the poll's own failure, passed on as it is
      else reject(error);
    };
    setTimeout(poll, 0);
  });
}
