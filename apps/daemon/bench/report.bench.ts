/**
 * `POST /report` against a real daemon process (built `dist/main.js`, its outbox on a temp dir, a local relay
 * stand-in answering 200): accepted reports per second and p50/p99 latency at 1, 8 and 64 concurrent clients.
 * A 202 means the report is fsync'ed, so this measures the durable path. Prints one table (also its section of
 * BENCHMARKS.md).
 *
 *   pnpm --filter @ringback/daemon bench      (after `pnpm --filter @ringback/daemon build`)
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { startBenchDaemon } from "./bench-daemon.ts";

const CONCURRENCY = [1, 8, 64];
const WARM_UP_MS = 500;
const MEASURE_MS = 3_000;
/** A typical agent report: a few paragraphs. */
const REPORT_TEXT = "Refactored the module and updated the tests; all of them pass. ".repeat(25);

const relay = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

const home = await mkdtemp(join(tmpdir(), "ringback-report-bench-"));
const { child: daemon, port } = await startBenchDaemon(home, {
  RINGBACK_SERVER_URL: relayUrl,
  RINGBACK_GATHER_SECONDS: "0",
});
const localKey = (await readFile(join(home, "local-api.key"), "utf8")).trim();

let sequence = 0;
async function postOne(): Promise<number> {
  sequence += 1;
  const body = JSON.stringify({
    source: "claude-code",
    sessionId: `bench-session-${sequence % 50}`,
    turnId: `turn-${sequence}`,
    cwd: "/home/user/project",
    text: REPORT_TEXT,
  });
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/report`, {
    method: "POST",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== 202) throw new Error(`daemon answered ${response.status}`);
  return performance.now() - started;
}

async function run(clients: number, durationMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) latencies.push(await postOne());
    }),
  );
  return latencies;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;

const rows: string[][] = [];
try {
  for (const clients of CONCURRENCY) {
    await run(clients, WARM_UP_MS);
    const started = performance.now();
    const latencies = (await run(clients, MEASURE_MS)).sort((a, b) => a - b);
    const seconds = (performance.now() - started) / 1000;
    rows.push([
      String(clients),
      String(latencies.length),
      (latencies.length / seconds).toFixed(0),
      percentile(latencies, 0.5).toFixed(2),
      percentile(latencies, 0.99).toFixed(2),
    ]);
  }
} finally {
  daemon.kill("SIGTERM");
  await new Promise((resolve) => daemon.once("exit", resolve));
  relay.close();
  await rm(home, { recursive: true, force: true });
}

const report = new BenchReport("@ringback/daemon report", "@ringback/daemon: POST /report to a durable 202");
report.line(
  `POST /report -> 202 (durable), ${MEASURE_MS / 1000} s per row, ${REPORT_TEXT.length}-char reports`,
);
report.line();
report.table(["clients", "reports", "accepted/s", "p50 (ms)", "p99 (ms)"], rows);
await report.save();
