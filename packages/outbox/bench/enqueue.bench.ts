/**
 * Enqueue cost (append to outbox.journal + fsync, i.e. until `enqueue` resolves) with 10, 1,000 and 10,000
 * reports already pending, to show that it does not grow with the outbox. Prints one table (also its section of BENCHMARKS.md).
 *
 *   pnpm --filter @ringback/outbox bench      (after `pnpm --filter @ringback/outbox build`)
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Report } from "@ringback/protocol";
import { BenchReport } from "../../../scripts/bench-report.mjs";

const PENDING_COUNTS = [10, 1_000, 10_000];
/** Enqueues timed one after another (each awaited) per pending count, after a short warm-up. */
const MEASURED_ENQUEUES = 300;
const WARM_UP_ENQUEUES = 20;
/** A typical agent report: a few paragraphs. */
const REPORT_TEXT = "The change is done and the tests pass. ".repeat(40);

const distEntry = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js");
if (!existsSync(distEntry)) throw new Error(`build first: ${distEntry} is missing`);
const { Outbox } = (await import(pathToFileURL(distEntry).href)) as typeof import("../src/index.js");

function makeReport(label: string, index: number): Report {
  return {
    eventId: `evt_${label}_${index}`,
    source: "claude-code",
    occurredAt: new Date().toISOString(),
    text: REPORT_TEXT,
    sessionId: `session-${index}`,
    cwd: "/home/user/project",
  };
}

/** Briefs never finish during the run, so every entry stays pending (as with a slow model). */
const neverFinishes = (_report: Report, signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

async function measure(pending: number): Promise<{ p50: number; p99: number }> {
  const directory = await mkdtemp(join(tmpdir(), "ringback-outbox-bench-"));
  try {
    const filling = new Outbox({ directory, generateBrief: neverFinishes });
    await filling.start();
    await Promise.all(
      Array.from({ length: pending }, (_, index) => filling.enqueue(makeReport("pending", index))),
    );
    await filling.stop();

    // A restart folds the journal into outbox.json, as a daemon with this many pending reports would have it.
    const outbox = new Outbox({ directory, generateBrief: neverFinishes });
    await outbox.start();
    const times: number[] = [];
    for (let index = 0; index < WARM_UP_ENQUEUES + MEASURED_ENQUEUES; index += 1) {
      const started = performance.now();
      await outbox.enqueue(makeReport("measured", index));
      if (index >= WARM_UP_ENQUEUES) times.push(performance.now() - started);
    }
    await outbox.stop();
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const rows: { pending: number; p50: number; p99: number }[] = [];
for (const pending of PENDING_COUNTS) rows.push({ pending, ...(await measure(pending)) });
const baseline = rows[0]?.p50 ?? Number.NaN;

const report = new BenchReport(
  "@ringback/outbox enqueue",
  "@ringback/outbox: enqueue cost against reports pending",
);
report.line(
  `outbox enqueue (append + fsync), ${MEASURED_ENQUEUES} sequential enqueues per row, ${REPORT_TEXT.length}-char reports`,
);
report.line();
report.table(
  ["pending", "p50 per enqueue (ms)", "p99 (ms)", "p50 vs 10 pending"],
  rows.map((row) => [
    row.pending.toLocaleString("en-US"),
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    `${(row.p50 / baseline).toFixed(2)}x`,
  ]),
);
await report.save();
