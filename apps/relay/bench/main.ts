import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { findNginx, NGINX_MISSING_MESSAGE } from "../test/support/nginx-server.ts";
import {
  findPostgresBinaries,
  isPostgresSkipped,
  POSTGRES_MISSING_MESSAGE,
  startPostgresServer,
} from "../test/support/postgres-server.ts";
import { createAccount, SEALED_BYTES, subscribe } from "./bench-client.ts";
import { Cleanup } from "./cleanup.ts";
import { type Deployment, postgresDeployment, sqliteDeployment } from "./deployments.ts";
import { fanOut, type Latency, latency, type Throughput } from "./measures.ts";
import type { RelayProcess } from "./relay-process.ts";
import type { SseSubscriber } from "./sse-subscriber.ts";

/**
 * The bench takes about a minute on a quiet 2-core machine; past this (a hang, or a machine busy with other work)
 * it stops everything it started and fails.
 */
const BENCH_BUDGET_MS = 150_000;
const LATENCY_EVENTS = { one: 100, hundred: 50, thousand: 20 } as const;
const FAN_OUT_SUBSCRIBERS = 1000;
const FAN_OUT_EVENTS = 100;
const FAN_OUT_CONCURRENCY = 4;
const IDLE_CONNECTIONS = 1000;

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const cleanup = new Cleanup();

const ms = (value: number) => `${value.toFixed(2)} ms`;
const started = performance.now();

/** A progress line on stderr: the tables go to stdout at the end. */
function progress(step: string): void {
  console.error(`relay bench: ${step} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

async function settledMemory(relay: RelayProcess) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return relay.memoryAfterGc();
}

function closeAll(streams: readonly SseSubscriber[]): void {
  for (const stream of streams) stream.close();
}

type Account = Awaited<ReturnType<typeof createAccount>>;

/**
 * The single-instance SQLite figures: latency to 1 and 100 streams, memory per idle stream. The 1,000 idle
 * streams stay open for the next measure.
 */
async function sqliteDetails(
  deployment: Deployment,
  relay: RelayProcess,
  { computer, phone }: Account,
): Promise<{ rows: string[][]; idle: SseSubscriber[] }> {
  const measure = async (subscribers: number, events: number) => {
    const streams = await subscribe(deployment.url, phone.deviceToken, subscribers, agent);
    const result = await latency(deployment.url, computer.deviceToken, streams, events);
    closeAll(streams);
    return result;
  };
  const one = await measure(1, LATENCY_EVENTS.one);
  progress("SQLite, 1 subscriber: latency measured");
  const hundred = await measure(100, LATENCY_EVENTS.hundred);
  progress("SQLite, 100 subscribers: latency measured");
  // Open and close as many streams first, so the heap has already grown to hold them: the delta is then what
  // the streams keep, not the runtime's one-off growth.
  closeAll(await subscribe(deployment.url, phone.deviceToken, IDLE_CONNECTIONS, agent));
  const before = await settledMemory(relay);
  const idle = await subscribe(deployment.url, phone.deviceToken, IDLE_CONNECTIONS, agent);
  const after = await settledMemory(relay);
  progress("SQLite: memory per stream measured");
  const perStream = (bytes: number) => `${(bytes / IDLE_CONNECTIONS / 1024).toFixed(1)} KiB`;
  const rows = [
    [
      "report-to-client latency, 1 SSE subscriber",
      `p50 ${ms(one.p50)}, p99 ${ms(one.p99)}`,
      `${one.samples} events`,
    ],
    [
      "report-to-client latency, 100 SSE subscribers",
      `p50 ${ms(hundred.p50)}, p99 ${ms(hundred.p99)}`,
      `${hundred.samples} deliveries`,
    ],
    [
      "relay memory per idle SSE connection",
      `${perStream(after.rss - before.rss)} RSS (${perStream(after.heapUsed - before.heapUsed)} JS heap)`,
      `delta over ${IDLE_CONNECTIONS} streams, after GC`,
    ],
  ];
  return { rows, idle };
}

/** 1,000 streams on a deployment: latency of events posted one at a time, then sustained events/s. */
async function thousandStreams(
  name: string,
  deployment: Deployment,
  account?: Account,
  openStreams?: SseSubscriber[],
): Promise<{ latency: Latency; throughput: Throughput }> {
  const { computer, phone } = account ?? (await createAccount(deployment.url));
  const streams =
    openStreams ?? (await subscribe(deployment.url, phone.deviceToken, FAN_OUT_SUBSCRIBERS, agent));
  progress(`${name}: ${streams.length} streams open`);
  try {
    const measured = await latency(deployment.url, computer.deviceToken, streams, LATENCY_EVENTS.thousand);
    progress(`${name}: latency measured`);
    const throughput = await fanOut(
      deployment.url,
      computer.deviceToken,
      streams,
      FAN_OUT_EVENTS,
      FAN_OUT_CONCURRENCY,
    );
    progress(`${name}: events/s measured`);
    return { latency: measured, throughput };
  } finally {
    closeAll(streams);
  }
}

function thousandStreamsRow(name: string, figures: Awaited<ReturnType<typeof thousandStreams>> | string) {
  if (typeof figures === "string") return [name, figures, "", "", ""];
  return [
    name,
    `${Math.round(figures.throughput.eventsPerSecond)}`,
    Math.round(figures.throughput.deliveriesPerSecond).toLocaleString("en"),
    ms(figures.latency.p50),
    ms(figures.latency.p99),
  ];
}

async function run(): Promise<{ details: string[][]; deployments: string[][] }> {
  const isPostgresWanted = !isPostgresSkipped();
  if (isPostgresWanted && !findPostgresBinaries()) throw new Error(POSTGRES_MISSING_MESSAGE);
  if (isPostgresWanted && !findNginx()) throw new Error(NGINX_MISSING_MESSAGE);

  const sqlite = await sqliteDeployment(cleanup);
  if (!sqlite.relay) throw new Error("The SQLite deployment has one relay.");
  const account = await createAccount(sqlite.url);
  const { rows: details, idle } = await sqliteDetails(sqlite, sqlite.relay, account);
  const rows = [
    thousandStreamsRow("1 relay, SQLite", await thousandStreams("SQLite", sqlite, account, idle)),
  ];
  await cleanup.run();

  if (!isPostgresWanted) {
    const skipped = "skipped (RINGBACK_SKIP_POSTGRES=1)";
    rows.push(thousandStreamsRow("1 relay, PostgreSQL", skipped));
    rows.push(thousandStreamsRow("2 relays, PostgreSQL, behind nginx", skipped));
    return { details, deployments: rows };
  }
  const starting = startPostgresServer({ isDurable: true });
  cleanup.addStarting(starting, (server) => server.stop());
  const server = await starting;
  // The single relay is stopped before the pair starts: idle processes still take their share of two cores.
  const singleCleanup = new Cleanup();
  cleanup.add(() => singleCleanup.run());
  const single = await postgresDeployment(singleCleanup, server, 1);
  rows.push(thousandStreamsRow("1 relay, PostgreSQL", await thousandStreams("PostgreSQL", single)));
  await singleCleanup.run();
  const pair = await postgresDeployment(cleanup, server, 2);
  rows.push(
    thousandStreamsRow(
      "2 relays, PostgreSQL, behind nginx",
      await thousandStreams("2 x PostgreSQL behind nginx", pair),
    ),
  );
  return { details, deployments: rows };
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

const watchdog = setTimeout(() => {
  console.error(`relay bench: over its ${BENCH_BUDGET_MS / 1000} s budget, stopping.`);
  void cleanup.run().finally(() => process.exit(1));
}, BENCH_BUDGET_MS);
watchdog.unref();

run()
  .then(
    ({ details, deployments }) => {
      console.log(
        `\nringback relay bench: loopback, relays in their own processes, Node ${process.version}, sealed ${SEALED_BYTES} B\n`,
      );
      console.log("One relay on SQLite:\n");
      printTable(["measure", "result", "sample"], details);
      console.log(
        `\n${FAN_OUT_SUBSCRIBERS} SSE subscribers: events/s with ${FAN_OUT_CONCURRENCY} posting at once ` +
          `(${FAN_OUT_EVENTS} events, until every subscriber has every event); report-to-client latency of ` +
          `${LATENCY_EVENTS.thousand} events posted one at a time (each delivery a sample):\n`,
      );
      printTable(["deployment", "events/s", "deliveries/s", "latency p50", "latency p99"], deployments);
    },
    (error: unknown) => {
      console.error("relay bench failed:", error);
      process.exitCode = 1;
    },
  )
  .finally(async () => {
    await cleanup.run();
    agent.destroy();
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  });
