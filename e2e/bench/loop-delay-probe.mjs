// Loaded into the relay and the daemon by the soak (NODE_OPTIONS=--import=…): every 10 s, one stderr line with the
// event loop's delay over those 10 s and the memory V8 holds. Nothing of the product changes; the soak reads the latest line.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
setInterval(() => {
  const ms = (nanoseconds) => (nanoseconds / 1e6).toFixed(1);
  // With --expose-gc, the JS heap right after a full collection: what the process really keeps alive, which RSS
  // (grown by the allocator and rarely given back) cannot tell apart from garbage not yet collected.
  // The young generation is reported apart: V8 grows it (up to its limit) under a high allocation rate, and it
  // shows in RSS without anything being kept.
  globalThis.gc?.();
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  const young = getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
  process.stderr.write(
    `ringback-loop-delay p50=${ms(histogram.percentile(50))} p99=${ms(histogram.percentile(99))} max=${ms(histogram.max)} heap=${mib(process.memoryUsage().heapUsed)} young=${mib(young)}\n`,
  );
  histogram.reset();
}, 10_000).unref();
