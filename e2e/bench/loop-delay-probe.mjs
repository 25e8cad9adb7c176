// Loaded into the relay and the daemon by the soak (NODE_OPTIONS=--import=…): every 10 s, one stderr line with the
// event loop's delay over those 10 s. Nothing of the product changes; the soak reads the latest line.
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
setInterval(() => {
  const ms = (nanoseconds) => (nanoseconds / 1e6).toFixed(1);
  process.stderr.write(
    `ringback-loop-delay p50=${ms(histogram.percentile(50))} p99=${ms(histogram.percentile(99))} max=${ms(histogram.max)}\n`,
  );
  histogram.reset();
}, 10_000).unref();
