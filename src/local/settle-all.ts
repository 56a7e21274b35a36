/**
 * `Promise.all` that waits for every promise before it fails. A job that starts several
 * writes owns all of them: when one fails, the others may still be writing into the job's
 * folder, and the folder may only go (cancel, delete, cleanup) once none is left running.
 * The first failure is thrown once all have settled; later ones are already handled.
 */
export async function settleAll<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
