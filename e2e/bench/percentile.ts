/** The nearest-rank percentile of `samples` (`fraction` 0.5 for p50, 0.99 for p99). */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] as number;
}
