import { performance } from "node:perf_hooks";

/** Progress lines on stderr, each with the seconds since the bench started: the tables go to stdout at the end. */
export function progressOf(bench: string): (step: string) => void {
  const started = performance.now();
  return (step) =>
    console.error(`${bench}: ${step} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
