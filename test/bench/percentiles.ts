/** The p-th percentile (0..100) of samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The middle sample (the upper of the two middle ones for an even count). */
export const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

export const ms = (n: number) => `${n.toFixed(1)} ms`;

export const summary = (samples: readonly number[]) =>
  `p50 ${ms(percentile(samples, 50))}  p99 ${ms(percentile(samples, 99))}  (n=${samples.length})`;
