/**
 * The whole system's figures: the time from the hook's `POST /report` to the ringing screen in Chromium (real
 * relay, daemon and hook processes, an instant fake model), with the daemon's 202 as the baseline measured in the
 * same run, and the web app's gzipped JavaScript as apps/web-client/bench/bundle-size.mjs measures it. Prints them
 * (also its section of BENCHMARKS.md). Then the soak (bench/soak.ts): RINGBACK_SOAK_MINUTES (30 by default, 0 to
 * leave it out).
 *
 *   pnpm --filter @ringback/e2e bench      (after building the relay, daemon, hook and web client)
 */
import { BenchReport } from "../../scripts/bench-report.mjs";
import { measureBundleSize } from "./bundle-size.ts";
import { runLocalModelBench } from "./local-model.ts";
import { percentile } from "./percentile.ts";
import { measureRingLatency } from "./ring-latency.ts";
import { runSoak } from "./soak.ts";

const REPORTS = 20;
const WARM_UP_REPORTS = 2;

const milliseconds = (value: number) => `${value.toFixed(0)} ms`;

const latency = await measureRingLatency(REPORTS, WARM_UP_REPORTS);
const size = await measureBundleSize();

const ringingP50 = percentile(latency.postToRinging, 0.5);
const acceptedP50 = percentile(latency.postToAccepted, 0.5);
const report = new BenchReport("@ringback/e2e", "Whole system: time to ring, and the web app's size");
report.line(`whole system: hook -> daemon -> relay -> Chromium (${REPORTS} reports, instant model)`);
report.line();
report.table(
  ["what", "p50", "p99"],
  [
    [
      "hook POST -> daemon 202 (baseline)",
      milliseconds(acceptedP50),
      milliseconds(percentile(latency.postToAccepted, 0.99)),
    ],
    [
      "hook POST -> ringing screen",
      milliseconds(ringingP50),
      milliseconds(percentile(latency.postToRinging, 0.99)),
    ],
  ],
);
report.line();
report.line(
  `ringing p50 / 202 p50: ${(ringingP50 / acceptedP50).toFixed(1)}x; goal: ringing p50 <= 300 ms on a platform ` +
    "without voices (headless Chromium has none). The ringing time includes the app preparing the whole voice; " +
    "the voice list is asked for once at app start and a call waits for it only within VOICES_WAIT_MS of that.",
);
report.line();
report.line("web app JavaScript, as apps/web-client/bench/bundle-size.mjs measures it");
report.line();
report.table(
  ["what", "size"],
  [
    ["first load (gzip -9)", size.firstLoadGzip],
    ["all page JS (gzip -9)", size.allPageGzip],
  ],
);
await report.save();

// Briefs on a small local model with a real llama.cpp (RINGBACK_BENCH_LOCAL_MODEL=0 leaves it out); printed, not
// asserted: its goals are in its table.
await runLocalModelBench();

// Last, the soak: 30 minutes unless RINGBACK_SOAK_MINUTES says otherwise (0 leaves it out).
const soakMinutes = Number(process.env.RINGBACK_SOAK_MINUTES ?? 30);
if (soakMinutes > 0) process.exitCode = (await runSoak(soakMinutes)) ? 0 : 1;
