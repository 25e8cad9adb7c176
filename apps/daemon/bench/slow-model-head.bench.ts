/**
 * A model whose server sends its response head only with the first token, 310 s after the request (a laptop model
 * reading a long prompt behind Ollama's OpenAI endpoint), briefed two ways at once against the same fake model:
 * `ringback brief-eval` (built `dist/main.js`, the daemon's own fetch on node:http) and `@ringback/brief` on Node's
 * global fetch. The daemon's limits for a local endpoint allow 600 s; Node's fetch stops waiting for a head at
 * 300 s (undici's headersTimeout). Prints one table (also its section of BENCHMARKS.md).
 *
 * It takes over 5 minutes, so it runs only when asked:
 *
 *   RINGBACK_BENCH_SLOW_HEAD=1 pnpm --filter @ringback/daemon bench   (after `pnpm --filter @ringback/daemon build`)
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateBrief } from "@ringback/brief";
import { answers, startFakeModel } from "@ringback/fake-model";
import { runToEnd } from "@ringback/test-kit";
import { BenchReport } from "../../../scripts/bench-report.mjs";

const HEAD_AFTER_MS = 310_000;
const REPORT_TEXT = "The login bug is fixed. All 42 tests pass.";
const MODEL_KEY = "sk-bench-slow-head-0123456789";

if (process.env.RINGBACK_BENCH_SLOW_HEAD !== "1") {
  console.log("slow model head bench: skipped (RINGBACK_BENCH_SLOW_HEAD=1 runs it; it takes over 5 minutes)");
  process.exit(0);
}

const bin = fileURLToPath(new URL("../dist/main.js", import.meta.url));
if (!existsSync(bin)) throw new Error(`build first: ${bin} is missing`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

await using model = await startFakeModel({ apiKey: MODEL_KEY });
model.setDefaultAnswer(answers.delay(HEAD_AFTER_MS, answers.streamed()));
const channel = { baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model" };
const home = await mkdtemp(join(tmpdir(), "ringback-slow-head-bench-"));

async function daemonFetch(): Promise<string[]> {
  await writeFile(join(home, "daemon.json"), JSON.stringify({ llm: { primary: channel } }), { mode: 0o600 });
  const file = join(home, "report.txt");
  await writeFile(file, REPORT_TEXT);
  const started = performance.now();
  const result = await runToEnd({
    args: [bin, "brief-eval", file],
    env: { PATH: process.env.PATH, HOME: home, LANG: "en_US.UTF-8", RINGBACK_HOME: home },
  });
  const outcome = result.code === 0 ? "brief generated" : `failed: ${result.stderr || result.stdout}`.trim();
  return ["ringback brief-eval (daemon's fetch, node:http)", outcome, seconds(performance.now() - started)];
}

async function globalFetch(): Promise<string[]> {
  const started = performance.now();
  const brief = await generateBrief({
    report: {
      eventId: "bench-slow-head",
      source: "codex",
      occurredAt: new Date().toISOString(),
      text: REPORT_TEXT,
    },
    channel: { ...channel, structuredOutput: "json_schema" },
    language: "en-US",
  });
  const outcome = brief.meta.status === "generated" ? "brief generated" : `failed: ${brief.meta.error}`;
  return ["@ringback/brief on Node's global fetch", outcome, seconds(performance.now() - started)];
}

try {
  const rows = await Promise.all([daemonFetch(), globalFetch()]);
  const report = new BenchReport(
    "@ringback/daemon slow-model-head",
    "@ringback/daemon: a model that sends its response head with the first token, after 310 s",
  );
  report.line(
    `The fake model holds its response head ${seconds(HEAD_AFTER_MS)} (reading the prompt), then streams a brief; ` +
      "a local endpoint's limits allow 600 s.",
  );
  report.line();
  report.table(["client", "outcome", "time"], rows);
  await report.save();
} finally {
  await rm(home, { recursive: true, force: true });
}
