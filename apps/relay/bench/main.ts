import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { findNginx, NGINX_MISSING_MESSAGE } from "../test/support/nginx-server.ts";
import {
  findPostgresBinaries,
  isPostgresSkipped,
  POSTGRES_MISSING_MESSAGE,
  startPostgresServer,
} from "../test/support/postgres-server.ts";
import {
  fanOutAgainstBare,
  idleStreamsAgainstBare,
  type StreamMemory,
  type Target,
} from "./baseline-figures.ts";
import {
  createAccount,
  pairDevices,
  SEALED_BYTES,
  SMALL_SEALED_BYTES,
  subscribe,
  tokensOf,
} from "./bench-client.ts";
import { Cleanup } from "./cleanup.ts";
import { type Deployment, postgresDeployment, sqliteDeployment } from "./deployments.ts";
import { ensureOpenFiles } from "./fd-limit.ts";
import { GOAL_HEADER, type Goal, goalRows, ratioOf } from "./goals.ts";
import { fanOut, fanOutAtRate, type Latency, latency, type Throughput } from "./measures.ts";
import { progressOf } from "./progress.ts";
import type { SseSubscriber } from "./sse-subscriber.ts";

/**
 * The bench takes about 100 s on a quiet 2-core machine; past this (a hang, or a machine busy with other work)
 * it stops everything it started and fails.
 */
const BENCH_BUDGET_MS = 300_000;
const LATENCY_EVENTS = { one: 100, hundred: 50, thousand: 20 } as const;
const FAN_OUT_SUBSCRIBERS = 1000;
const FAN_OUT_EVENTS = 400;
const FAN_OUT_CONCURRENCY = 4;
/** Rounds of the relay-against-bare fan-out, taking turns; the best of each counts. */
const FAN_OUT_ROUNDS = 2;
/**
 * The offered load at which deployments' CPU per delivery is compared: the same for all, below what each sustains,
 * so the figure is what an instance costs and not how much more a faster deployment batches. 12 s of it: CPU time
 * is read in 10 ms ticks, and the two-relay ratio must hold run after run, not once.
 */
const OFFERED = { events: 300, eventsPerSecond: 25 } as const;
const IDLE_STREAMS = 10_000;
/** The issue's goals: fan-out against the bare server's, memory per idle stream, two relays' CPU against one's. */
const FAN_OUT_GOAL = 1.5;
const STREAM_MEMORY_GOAL_KIB = 40;
const PAIR_CPU_GOAL = 1.25;

// One socket per stream here and in the server, plus the files both already hold.
ensureOpenFiles(IDLE_STREAMS + 1024);

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const cleanup = new Cleanup();

const ms = (value: number) => `${value.toFixed(2)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const streamMemoryText = (memory: StreamMemory) =>
  `${kib(memory.rssPerStream)} per stream (${(memory.rss / 2 ** 20).toFixed(0)} MiB; ` +
  `+${kib(memory.rssDeltaPerStream)} RSS, +${kib(memory.heapDeltaPerStream)} heap each)`;
const perSecond = (value: number) => Math.round(value).toLocaleString("en");
const started = performance.now();

const progress = progressOf("relay bench");

function closeAll(streams: readonly SseSubscriber[]): void {
  for (const stream of streams) stream.close();
}

type Account = Awaited<ReturnType<typeof createAccount>>;

/** Report-to-client latency to 1 and 100 streams of one relay on SQLite. */
async function sqliteLatency(deployment: Deployment, { computer, phone }: Account): Promise<string[][]> {
  const measure = async (subscribers: number, events: number) => {
    const devices = [phone, ...(await pairDevices(deployment.url, computer, subscribers - 1))];
    const streams = await subscribe(deployment.url, tokensOf(devices), agent);
    const result = await latency(deployment.url, computer.deviceToken, streams, events);
    closeAll(streams);
    return result;
  };
  const one = await measure(1, LATENCY_EVENTS.one);
  progress("SQLite, 1 subscriber: latency measured");
  const hundred = await measure(100, LATENCY_EVENTS.hundred);
  progress("SQLite, 100 subscribers: latency measured");
  return [
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
  ];
}

interface ThousandStreams {
  readonly latency: Latency;
  readonly throughput: Throughput;
  /** CPU seconds of every relay of the deployment per delivered event, posting as fast as they answer. */
  readonly cpuPerDelivery: number;
  /** The same at the offered load `OFFERED`. */
  readonly cpuPerDeliveryOffered: number;
}

/**
 * 1,000 streams on a deployment: latency of events posted one at a time, then sustained events/s of 1 KB events
 * and what each delivery cost its relays in CPU.
 */
async function thousandStreams(name: string, deployment: Deployment): Promise<ThousandStreams> {
  const { computer, phone } = await createAccount(deployment.url);
  const devices = [phone, ...(await pairDevices(deployment.url, computer, FAN_OUT_SUBSCRIBERS - 1))];
  const streams = await subscribe(deployment.url, tokensOf(devices), agent);
  progress(`${name}: ${streams.length} streams open`);
  try {
    const measured = await latency(deployment.url, computer.deviceToken, streams, LATENCY_EVENTS.thousand);
    progress(`${name}: latency measured`);
    const cpuTime = () => deployment.relays.reduce((sum, relay) => sum + relay.cpuSeconds(), 0);
    const cpuBefore = cpuTime();
    const throughput = await fanOut(
      deployment.url,
      computer.deviceToken,
      streams,
      FAN_OUT_EVENTS,
      FAN_OUT_CONCURRENCY,
      SMALL_SEALED_BYTES,
    );
    const cpuPerDelivery = (cpuTime() - cpuBefore) / (FAN_OUT_EVENTS * streams.length);
    progress(`${name}: events/s measured`);
    const cpuBeforeOffered = cpuTime();
    await fanOutAtRate(
      deployment.url,
      computer.deviceToken,
      streams,
      OFFERED.events,
      OFFERED.eventsPerSecond,
      SMALL_SEALED_BYTES,
    );
    const cpuPerDeliveryOffered = (cpuTime() - cpuBeforeOffered) / (OFFERED.events * streams.length);
    progress(`${name}: CPU at ${OFFERED.eventsPerSecond} events/s measured`);
    return { latency: measured, throughput, cpuPerDelivery, cpuPerDeliveryOffered };
  } finally {
    closeAll(streams);
  }
}

const micros = (seconds: number) => `${(seconds * 1e6).toFixed(2)} µs`;

function thousandStreamsRow(name: string, figures: ThousandStreams | string) {
  if (typeof figures === "string") return [name, figures, "", "", "", "", ""];
  return [
    name,
    `${Math.round(figures.throughput.eventsPerSecond)}`,
    perSecond(figures.throughput.deliveriesPerSecond),
    ms(figures.latency.p50),
    ms(figures.latency.p99),
    micros(figures.cpuPerDelivery),
    micros(figures.cpuPerDeliveryOffered),
  ];
}

interface BenchTables {
  readonly latencies: string[][];
  readonly deployments: string[][];
  readonly goals: Goal[];
}

async function run(): Promise<BenchTables> {
  const isPostgresWanted = !isPostgresSkipped();
  if (isPostgresWanted && !findPostgresBinaries()) throw new Error(POSTGRES_MISSING_MESSAGE);
  if (isPostgresWanted && !findNginx()) throw new Error(NGINX_MISSING_MESSAGE);

  const sqlite = await sqliteDeployment(cleanup);
  if (!sqlite.relay) throw new Error("The SQLite deployment has one relay.");
  const relayTarget: Target = {
    server: sqlite.relay,
    freshAccount: async (subscribers) => {
      const { computer, phone } = await createAccount(sqlite.url);
      return {
        poster: computer,
        subscribers: [phone, ...(await pairDevices(sqlite.url, computer, subscribers - 1))],
      };
    },
  };
  // First, on a relay that has served nothing yet.
  const memory = await idleStreamsAgainstBare(cleanup, relayTarget, agent, IDLE_STREAMS);
  progress(`SQLite and bare node:http: ${IDLE_STREAMS.toLocaleString("en")} idle streams measured`);
  const latencies = await sqliteLatency(sqlite, await createAccount(sqlite.url));
  const fanOutFigures = await fanOutAgainstBare(cleanup, relayTarget, agent, {
    subscribers: FAN_OUT_SUBSCRIBERS,
    events: FAN_OUT_EVENTS,
    concurrency: FAN_OUT_CONCURRENCY,
    rounds: FAN_OUT_ROUNDS,
  });
  progress("SQLite and bare node:http: fan-out measured");
  const goals: Goal[] = [
    {
      figure: `fan-out, 1 KB events to ${FAN_OUT_SUBSCRIBERS.toLocaleString("en")} SSE subscribers, SQLite, 1 relay`,
      relay: `${perSecond(fanOutFigures.relay.deliveriesPerSecond)} deliveries/s`,
      baseline: `bare node:http SSE fan-out: ${perSecond(fanOutFigures.bare.deliveriesPerSecond)} deliveries/s`,
      comparison: ratioOf(fanOutFigures.relay.deliveriesPerSecond, fanOutFigures.bare.deliveriesPerSecond),
      goal: `>= ${FAN_OUT_GOAL}x`,
      isMet: fanOutFigures.relay.deliveriesPerSecond >= FAN_OUT_GOAL * fanOutFigures.bare.deliveriesPerSecond,
    },
    {
      figure: `memory, ${IDLE_STREAMS.toLocaleString("en")} idle SSE streams (RSS after GC / streams; JS heap each)`,
      relay: streamMemoryText(memory.relay),
      baseline: `bare node:http: ${streamMemoryText(memory.bare)}`,
      comparison: ratioOf(memory.relay.rssPerStream, memory.bare.rssPerStream),
      goal: `< ${STREAM_MEMORY_GOAL_KIB} KiB per stream`,
      isMet: memory.relay.rssPerStream < STREAM_MEMORY_GOAL_KIB * 1024,
    },
  ];
  const rows = [thousandStreamsRow("1 relay, SQLite", await thousandStreams("SQLite", sqlite))];
  await cleanup.run();

  if (!isPostgresWanted) {
    const skipped = "skipped (RINGBACK_SKIP_POSTGRES=1)";
    rows.push(thousandStreamsRow("1 relay, PostgreSQL", skipped));
    rows.push(thousandStreamsRow("2 relays, PostgreSQL, behind nginx", skipped));
    return { latencies, deployments: rows, goals };
  }
  const starting = startPostgresServer({ isDurable: true });
  cleanup.addStarting(starting, (server) => server.stop());
  const server = await starting;
  // The single relay is stopped before the pair starts: idle processes still take their share of two cores.
  const singleCleanup = new Cleanup();
  cleanup.add(() => singleCleanup.run());
  const single = await thousandStreams("PostgreSQL", await postgresDeployment(singleCleanup, server, 1));
  rows.push(thousandStreamsRow("1 relay, PostgreSQL", single));
  await singleCleanup.run();
  const pair = await thousandStreams(
    "2 x PostgreSQL behind nginx",
    await postgresDeployment(cleanup, server, 2),
  );
  rows.push(thousandStreamsRow("2 relays, PostgreSQL, behind nginx", pair));
  goals.push({
    figure: `relay CPU per delivered event at ${OFFERED.eventsPerSecond} events/s, 2 relays on PostgreSQL behind nginx (both relays' CPU)`,
    relay: micros(pair.cpuPerDeliveryOffered),
    baseline: `1 relay on PostgreSQL: ${micros(single.cpuPerDeliveryOffered)}`,
    comparison: ratioOf(pair.cpuPerDeliveryOffered, single.cpuPerDeliveryOffered),
    goal: `<= ${PAIR_CPU_GOAL}x`,
    isMet: pair.cpuPerDeliveryOffered <= PAIR_CPU_GOAL * single.cpuPerDeliveryOffered,
  });
  return { latencies, deployments: rows, goals };
}

const watchdog = setTimeout(() => {
  console.error(`relay bench: over its ${BENCH_BUDGET_MS / 1000} s budget, stopping.`);
  void cleanup.run().finally(() => process.exit(1));
}, BENCH_BUDGET_MS);
watchdog.unref();

run()
  .then(
    async ({ latencies, deployments, goals }) => {
      const report = new BenchReport(
        "@ringback/relay",
        "@ringback/relay: fan-out, memory, latency and the cluster's cost",
      );
      report.line(
        `\nringback relay bench: loopback, servers in their own processes, the load from this one, Node ${process.version}\n`,
      );
      report.line(`The relay's figures, each against its baseline measured in this run:\n`);
      report.table(GOAL_HEADER, goalRows(goals));
      report.line(`\nOne relay on SQLite, sealed ${SEALED_BYTES} B:\n`);
      report.table(["measure", "result", "sample"], latencies);
      report.line(
        `\n${FAN_OUT_SUBSCRIBERS} SSE subscribers: events/s of ${SMALL_SEALED_BYTES} B sealed events with ` +
          `${FAN_OUT_CONCURRENCY} posting at once (${FAN_OUT_EVENTS} events, until every subscriber has every ` +
          `event) and the relays' CPU per delivery then and with ${OFFERED.events} events posted at ` +
          `${OFFERED.eventsPerSecond}/s; report-to-client latency of ${LATENCY_EVENTS.thousand} events ` +
          `posted one at a time (each delivery a sample):\n`,
      );
      report.table(
        [
          "deployment",
          "events/s",
          "deliveries/s",
          "latency p50",
          "latency p99",
          "relay CPU per delivery",
          `at ${OFFERED.eventsPerSecond} events/s`,
        ],
        deployments,
      );
      await report.save();
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
