/**
 * Briefs on a small local model, measured with a real llama.cpp (issue #27): node-llama-cpp's CPU build behind a
 * small OpenAI-compatible server (bench/local-llama-server.ts) over random weights in Qwen3-0.6B's shape with
 * Qwen3's real tokenizer, and the whole system as a user runs it: the real hook posts a 1-line, a 30-line and a
 * 350-line report to the real daemon (the model set through PUT /llm/settings with no limits: a local endpoint's
 * defaults), which briefs it, seals it and posts it to the real relay, until the paired device in Chromium rings.
 * The first run installs node-llama-cpp into a cache outside the workspace and generates the model there
 * (bench/local-model/cache.ts); later runs reuse both.
 *
 *   pnpm --filter @ringback/e2e exec node bench/local-model.ts   (also part of the package's bench, before the soak)
 *
 * RINGBACK_BENCH_LOCAL_MODEL=0 leaves it out; RINGBACK_BENCH_LLAMA_THREADS sets the server's threads (default: the
 * machine's cores, as llama-server's); RINGBACK_BENCH_CACHE moves the cache.
 */
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { BenchReport } from "../../scripts/bench-report.mjs";
import { writeHookView } from "../harness/daemon-files.ts";
import type { Device } from "../harness/device.ts";
import { claudeStopPayload, runHook } from "../harness/hook-process.ts";
import { startServiceProcess } from "../harness/service-process.ts";
import { startSystem } from "../harness/system.ts";
import type { RequestRecord } from "./local-llama-server.ts";
import { ensureBenchCache, LLAMA_PACKAGES } from "./local-model/cache.ts";
import { qwen3ShapeWeights } from "./local-model/qwen3-shape.ts";
import { benchReports } from "./local-model/reports.ts";
import { startPostStopwatch } from "./post-stopwatch.ts";

const LLAMA_SERVER = new URL("./local-llama-server.ts", import.meta.url).pathname;
/** The context the README tells users to start llama-server with (`-c 4096`). */
const CONTEXT_TOKENS = 4096;
/** Longer than the daemon's own cap for a local model (10 min) plus a rewrite, so the daemon gives up first. */
const CALL_WAIT_MS = 25 * 60_000;
const CALL_POLL_MS = 250;
const MODEL_NAME = "qwen3-0.6b-shape";
const REQUEST_LINE = /^llama request (\{.*\})$/gm;
const STARTED_LINE = /^llama request started \d+$/gm;
/** How long a call the daemon closed may take to end in the server (it stops at its next token or batch). */
const CALL_END_WAIT_MS = 2 * 60_000;

interface BriefMeta {
  status: string;
  llmCalls: number;
  error: string | null;
  reportCut?: { originalChars: number; briefedChars: number } | null;
}

/** The part of the device's call record (packages/client CallRecord) read here. */
interface StoredCall {
  eventId: string;
  /** When the device learned of the call: the relay delivered its event. */
  learnedAt: string;
  status: { state: string; missedReason: string | null };
  payload: unknown;
}

/** The call records the device holds (the web app's `call.<eventId>` keys, packages/client storage-keys.ts). */
function storedCalls(device: Device): Promise<StoredCall[]> {
  return device.page.evaluate(
    () =>
      new Promise<StoredCall[]>((resolve, reject) => {
        const opening = indexedDB.open("keyval-store");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const connection = opening.result;
          const store = connection.transaction("keyval", "readonly").objectStore("keyval");
          const request = store.getAll(IDBKeyRange.bound("call.", "call.\uffff"));
          request.onsuccess = () => {
            connection.close();
            resolve(request.result as StoredCall[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

/** Waits for a call the device did not hold before, once it rings or is recorded as missed. */
async function nextCall(device: Device, known: ReadonlySet<string>): Promise<StoredCall> {
  const deadline = Date.now() + CALL_WAIT_MS;
  while (Date.now() < deadline) {
    const call = (await storedCalls(device)).find((stored) => !known.has(stored.eventId));
    if (call && call.status.state !== "preparing") return call;
    await new Promise((resolve) => setTimeout(resolve, CALL_POLL_MS));
  }
  throw new Error(`no call reached the device within ${CALL_WAIT_MS / 60_000} minutes`);
}

/**
 * The model calls the server has ended, once every call it started has ended: a call the daemon gave up on ends
 * when the server sees the closed connection, a moment after the device got the failed brief.
 */
async function endedModelCalls(server: { stdout(): string }): Promise<RequestRecord[]> {
  const deadline = Date.now() + CALL_END_WAIT_MS;
  const started = () => server.stdout().match(STARTED_LINE)?.length ?? 0;
  while (modelCalls(server.stdout()).length < started() && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, CALL_POLL_MS));
  return modelCalls(server.stdout());
}

function modelCalls(stdout: string): RequestRecord[] {
  return [...stdout.matchAll(REQUEST_LINE)].map((match) => JSON.parse(match[1] ?? "{}") as RequestRecord);
}

/** The brief's meta inside the device's call record, wherever the record keeps it. */
function findBriefMeta(value: unknown): BriefMeta | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.status === "string" && typeof record.llmCalls === "number")
    return record as unknown as BriefMeta;
  for (const child of Object.values(record)) {
    const found = findBriefMeta(child);
    if (found) return found;
  }
  return null;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const count = (value: number) => value.toLocaleString("en-US");

function howItEnded(meta: BriefMeta | null): string {
  if (!meta) return "unknown (no brief in the call record)";
  const cut = meta.reportCut
    ? `; report cut to ${count(meta.reportCut.briefedChars)} of ${count(meta.reportCut.originalChars)} chars`
    : "";
  if (meta.status === "generated") return `complete${meta.llmCalls === 2 ? " after a rewrite" : ""}${cut}`;
  const error = meta.error ?? "";
  if (/output limit/.test(error))
    return `cut at output limit${meta.llmCalls === 2 ? " (in the rewrite)" : ""}${cut}`;
  // The first sentence says which limit or what went wrong; the rest (speeds, what to change) is in the table.
  return `failed: ${error.split(". ")[0]?.slice(0, 120)}${cut}`;
}

const isTimeFailure = (meta: BriefMeta | null) =>
  meta?.status === "failed" && /did not finish within|stopped writing/.test(meta.error ?? "");

/** Prints the table (and writes its section of BENCHMARKS.md). */
export async function runLocalModelBench(): Promise<void> {
  if (process.env.RINGBACK_BENCH_LOCAL_MODEL === "0") {
    console.log("local model bench: skipped (RINGBACK_BENCH_LOCAL_MODEL=0)");
    return;
  }
  const log = (line: string) => console.log(line);
  const cache = await ensureBenchCache(log);
  const threads = Number(process.env.RINGBACK_BENCH_LLAMA_THREADS ?? availableParallelism());
  const loadBefore = loadavg();

  await using llama = await startServiceProcess({
    name: "llama server",
    args: [
      LLAMA_SERVER,
      "--llama-dir",
      cache.llamaDir,
      "--model",
      cache.modelPath,
      "--threads",
      String(threads),
      "--context",
      String(CONTEXT_TOKENS),
    ],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    readyLine: /llama server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/,
    startChecks: 15_000,
  });
  const baseUrl = llama.ready[1] ?? "";
  // A server that has been running: its weights are read in (one token), as after llama-server's own warm-up.
  const warmUp = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Hi" }], stream: true, max_tokens: 1 }),
  });
  await warmUp.text();

  // A local server takes any key; "none" is what the README suggests for one that checks none.
  await using system = await startSystem({ model: { baseUrl, apiKey: "none", model: MODEL_NAME } });
  const device = await system.addDevice("bench phone");
  await using stopwatch = await startPostStopwatch(Number(new URL(system.daemon.url).port));
  const hookHome = join(system.directory.path, "hook-home");
  await writeHookView(hookHome, stopwatch.port, system.daemon.localKey);

  const output = new BenchReport(
    "@ringback/e2e local-model",
    "Briefs on a small local model (llama.cpp, issue #27)",
  );
  output.line(
    `local model: the whole path (hook -> daemon -> ${MODEL_NAME} on node-llama-cpp ${LLAMA_PACKAGES["node-llama-cpp"]} ` +
      `-> relay -> Chromium), ${(qwen3ShapeWeights() / 1e9).toFixed(2)} B random weights at Q8_0, Qwen3's tokenizer, ` +
      `context ${CONTEXT_TOKENS}, ${threads} thread(s) on ${availableParallelism()} cores; the daemon's default limits ` +
      "for a local endpoint (10 min per call, 60 s without a token)",
  );
  const header = [
    "report",
    "prompt tokens (read)",
    "output tokens / limit",
    "reading s",
    "writing s (tok/s)",
    "model CPU s",
    "report -> ringing s",
    "brief ended",
    "goal",
  ];
  const rows: string[][] = [];
  const allCalls: RequestRecord[] = [];
  const known = new Set((await storedCalls(device)).map((stored) => stored.eventId));
  for (const report of benchReports()) {
    const callsBefore = modelCalls(llama.stdout()).length;
    const payload = claudeStopPayload(report.text, { cwd: system.projectDir });
    const hook = await runHook("claude-code", payload, { home: hookHome, cwd: system.projectDir });
    if (!/\b202\b/.test(hook.stderr)) throw new Error(`the hook did not report:\n${hook.stderr}`);
    const passage = stopwatch.passages.at(-1);
    if (!passage) throw new Error(`the ${report.label} report was not timed`);
    const call = await nextCall(device, known);
    known.add(call.eventId);
    const meta = findBriefMeta(call.payload);
    const deliveredMs = Date.parse(call.learnedAt) - passage.requestAt;
    let toRingMs: number | null = null;
    if (call.status.state === "ringing") {
      const rangAt = (await device.ringTimes())[call.eventId];
      if (rangAt === undefined) throw new Error(`the ${report.label} report's ringing was not timed`);
      toRingMs = rangAt - passage.requestAt;
      await device.reject(call.eventId);
      await device.waitForNoRinging();
    }

    const calls = (await endedModelCalls(llama)).slice(callsBefore);
    allCalls.push(...calls);
    const goalMet =
      report.goalSeconds === null || (toRingMs !== null && toRingMs <= report.goalSeconds * 1000);
    const timeFailure = isTimeFailure(meta);
    const rang =
      toRingMs === null
        ? `no ring: ${call.status.state}${call.status.missedReason ? ` (${call.status.missedReason})` : ""}, delivered at ${seconds(deliveredMs)}`
        : seconds(toRingMs);
    console.log(`local model: ${report.label} -> ${rang} s`);
    const joined = (values: string[]) => values.join(" + ") || "0";
    rows.push([
      report.label,
      joined(
        calls.map((call) => `${count(call.promptTokens)} (${count(call.promptTokens - call.cachedTokens)})`),
      ),
      joined(calls.map((call) => `${call.outputTokens}/${call.maxTokens ?? "-"}`)),
      joined(calls.map((call) => seconds(call.promptMs))),
      joined(
        calls.map(
          (call) =>
            `${seconds(call.outputMs)} (${call.outputMs > 0 ? ((call.outputTokens * 1000) / call.outputMs).toFixed(1) : "-"})`,
        ),
      ),
      joined(calls.map((call) => seconds(call.promptCpuMs + call.outputCpuMs))),
      rang,
      howItEnded(meta),
      report.goalSeconds === null
        ? timeFailure
          ? "failed for time"
          : "-"
        : `<= ${report.goalSeconds} s: ${goalMet && !timeFailure ? "met" : "not met"}`,
    ]);
  }
  const loadAfter = loadavg();
  output.line();
  output.table(header, rows);
  output.line();
  const sum = (pick: (call: RequestRecord) => number) =>
    allCalls.reduce((total, call) => total + pick(call), 0);
  const readPerCpuSecond =
    (sum((call) => call.promptTokens - call.cachedTokens) * 1000) / sum((call) => call.promptCpuMs);
  const writtenPerCpuSecond = (sum((call) => call.outputTokens) * 1000) / sum((call) => call.outputCpuMs);
  output.line(
    `Per CPU second of the server (all its threads): ${readPerCpuSecond.toFixed(1)} prompt tokens read, ` +
      `${writtenPerCpuSecond.toFixed(1)} tokens written. With 1 thread that is its speed on a core of its own, ` +
      'whatever else runs; "model CPU s" is then about the model\'s time on an idle machine.',
  );
  output.line();
  output.line(
    `load average (1/5/15 min) before: ${loadBefore.map((value) => value.toFixed(2)).join(" ")}, ` +
      `after: ${loadAfter.map((value) => value.toFixed(2)).join(" ")} (${availableParallelism()} cores). ` +
      "Goal: 30 lines ring within 60 s and 350 lines within 120 s, no brief failed for time. Random weights " +
      "write noise: a brief that runs to its output limit is the longest a call can take.",
  );
  await output.save();
}

if (import.meta.main) await runLocalModelBench();
