/**
 * `pnpm bench` (after `pnpm build`): the package's own cost per brief with an instant model, and briefs per
 * second with a model that takes 2 s per call, 3 generations at once. Both tables are also its section of
 * BENCHMARKS.md.
 */
import { generateBrief } from "@ringback/brief";
import { answers, startFakeModel } from "@ringback/fake-model";
import { CONCURRENT_BRIEF_GENERATIONS, type LlmChannel, type Report } from "@ringback/protocol";
import { BenchReport } from "../../../scripts/bench-report.mjs";

const WARMUP_BRIEFS = 20;
const INSTANT_BRIEFS = 200;
const LARGE_REPORT_BRIEFS = 50;
const SLOW_MODEL_CALL_MS = 2000;
const SLOW_BRIEFS_PER_SLOT = 3;

const SENTENCE = "The session cookie is renewed on every request and all 42 tests pass. ";
const smallReport = (index: number): Report => ({
  eventId: `bench-${index}`,
  source: "claude-code",
  occurredAt: new Date().toISOString(),
  text: SENTENCE.repeat(6),
});
const largeReport = (index: number): Report => ({ ...smallReport(index), text: SENTENCE.repeat(1500) });

/** A fetch that measures the time inside the model call: from sending the request to the last body byte. */
function timedFetch() {
  let modelMs = 0;
  const measured: typeof fetch = async (input, init) => {
    const started = performance.now();
    const response = await fetch(input, init);
    const body = await response.text();
    modelMs += performance.now() - started;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: measured,
    take: () => {
      const taken = modelMs;
      modelMs = 0;
      return taken;
    },
  };
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

const report = new BenchReport("@ringback/brief", "@ringback/brief: cost per brief and throughput");

function printTable(title: string, [header = [], ...rows]: string[][]) {
  report.line();
  report.line(title);
  report.line();
  report.table(header, rows);
}

async function overhead(
  channel: LlmChannel,
  label: string,
  briefs: number,
  makeReport: (index: number) => Report,
  before: () => void,
  expectedCalls: number,
): Promise<string[]> {
  const timing = timedFetch();
  const overheads: number[] = [];
  const totals: number[] = [];
  for (let index = 0; index < WARMUP_BRIEFS + briefs; index++) {
    before();
    const started = performance.now();
    const brief = await generateBrief({
      report: makeReport(index),
      channel,
      language: "es-MX",
      fetch: timing.fetch,
    });
    const total = performance.now() - started;
    const modelMs = timing.take();
    if (brief.meta.status !== "generated" || brief.meta.llmCalls !== expectedCalls) {
      throw new Error(`unexpected brief in "${label}": ${JSON.stringify(brief.meta)}`);
    }
    if (index >= WARMUP_BRIEFS) {
      totals.push(total);
      overheads.push(total - modelMs);
    }
  }
  overheads.sort((a, b) => a - b);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return [
    label,
    String(briefs),
    String(expectedCalls),
    ms(mean(totals)),
    ms(mean(totals) - mean(overheads)),
    ms(mean(overheads)),
    ms(percentile(overheads, 0.5)),
    ms(percentile(overheads, 0.95)),
  ];
}

/** Runs `count` briefs with at most `slots` at once; resolves with the elapsed milliseconds. */
async function pool(count: number, slots: number, brief: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: slots }, async () => {
      while (next < count) await brief(next++);
    }),
  );
  return performance.now() - started;
}

async function throughput(channel: LlmChannel, slots: number): Promise<string[]> {
  const count = slots * SLOW_BRIEFS_PER_SLOT;
  const elapsed = await pool(count, slots, async (index) => {
    const brief = await generateBrief({ report: smallReport(index), channel, language: "es-MX" });
    if (brief.meta.status !== "generated") throw new Error(`brief failed: ${brief.meta.error}`);
  });
  const expected = slots / (SLOW_MODEL_CALL_MS / 1000);
  return [
    String(slots),
    String(count),
    `${SLOW_MODEL_CALL_MS} ms`,
    `${(elapsed / 1000).toFixed(2)} s`,
    (count / (elapsed / 1000)).toFixed(2),
    expected.toFixed(2),
  ];
}

await using instant = await startFakeModel();
const instantChannel: LlmChannel = {
  baseUrl: instant.url,
  apiKey: "sk-bench-0123456789",
  model: "fake-model",
  structuredOutput: "json_schema",
};
const noScript = () => {};
const rewriteScript = () => instant.script(answers.uncoveredFact(), answers.rewrite());
printTable("Overhead per brief with an instant model (time outside the model call)", [
  [
    "scenario",
    "briefs",
    "calls",
    "total mean",
    "in model call",
    "overhead mean",
    "overhead p50",
    "overhead p95",
  ],
  await overhead(instantChannel, "0.4 KB report", INSTANT_BRIEFS, smallReport, noScript, 1),
  await overhead(instantChannel, "100 KB report", LARGE_REPORT_BRIEFS, largeReport, noScript, 1),
  await overhead(instantChannel, "0.4 KB report, rewrite", INSTANT_BRIEFS, smallReport, rewriteScript, 2),
  await overhead(
    { ...instantChannel, structuredOutput: "json_object" },
    "0.4 KB report, json_object",
    INSTANT_BRIEFS,
    smallReport,
    noScript,
    1,
  ),
]);

await using slow = await startFakeModel({ defaultAnswer: answers.delay(SLOW_MODEL_CALL_MS) });
const slowChannel: LlmChannel = { ...instantChannel, baseUrl: slow.url };
printTable(`Throughput with a model that takes ${SLOW_MODEL_CALL_MS / 1000} s per call`, [
  ["slots", "briefs", "per call", "elapsed", "briefs/s", "expected"],
  await throughput(slowChannel, CONCURRENT_BRIEF_GENERATIONS),
  await throughput(slowChannel, 1),
]);
await report.save();
