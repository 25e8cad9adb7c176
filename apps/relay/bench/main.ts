import { mkdtemp, rm } from "node:fs/promises";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type RelayProcess, startRelayProcess } from "./relay-process.ts";
import { SseSubscriber } from "./sse-subscriber.ts";

/** The whole bench must finish well inside a minute; past this it stops and fails. */
const BENCH_BUDGET_MS = 55_000;
/** A typical sealed report + brief (a few KB of text), as base64 ciphertext. */
const SEALED_BYTES = 4096;
const LATENCY_EVENTS = { one: 200, hundred: 100 } as const;
const FAN_OUT_SUBSCRIBERS = 1000;
const FAN_OUT_EVENTS = 200;
const FAN_OUT_CONCURRENCY = 4;
const IDLE_CONNECTIONS = 1000;

interface Credentials {
  readonly deviceToken: string;
}

const sealed = `e2e1.0123456789abcdef.${"A".repeat(16)}.${"B".repeat(SEALED_BYTES)}`;
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const postAgent = new Agent({ keepAlive: true, maxSockets: FAN_OUT_CONCURRENCY });
let eventCounter = 0;

async function api(relay: RelayProcess, path: string, token: string | null, body: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, relay.url), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

function postEvent(relay: RelayProcess, token: string): { eventId: string; done: Promise<unknown> } {
  const eventId = `bench-${++eventCounter}`;
  const occurredAt = new Date().toISOString();
  return {
    eventId,
    done: api(relay, "/v1/daemon/events", token, { eventId, source: "codex", occurredAt, sealed }),
  };
}

async function subscribe(relay: RelayProcess, token: string, count: number): Promise<SseSubscriber[]> {
  const subscribers: SseSubscriber[] = [];
  const BATCH = 100;
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, () => new SseSubscriber());
    await Promise.all(batch.map((subscriber) => subscriber.open(relay.url, token, agent)));
    subscribers.push(...batch);
  }
  return subscribers;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Posts events one at a time; each event's latency to every subscriber is one sample. */
async function latency(
  relay: RelayProcess,
  computer: Credentials,
  phone: Credentials,
  subscribers: number,
  events: number,
) {
  const streams = await subscribe(relay, phone.deviceToken, subscribers);
  const samples: number[] = [];
  for (let index = 0; index < events; index++) {
    let remaining = streams.length;
    let postedAt = 0;
    let current = "";
    const delivered = new Promise<void>((resolve) => {
      for (const stream of streams) {
        stream.onCall = (eventId) => {
          if (eventId !== current) return;
          samples.push(performance.now() - postedAt);
          if (--remaining === 0) resolve();
        };
      }
    });
    postedAt = performance.now();
    const posted = postEvent(relay, computer.deviceToken);
    current = posted.eventId;
    await Promise.all([posted.done, delivered]);
  }
  for (const stream of streams) stream.close();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

/** Posts events as fast as a few concurrent daemons can; the clock stops when every subscriber has every event. */
async function fanOut(relay: RelayProcess, computer: Credentials, streams: SseSubscriber[]) {
  const target = streams.map((stream) => stream.calls + FAN_OUT_EVENTS);
  let finished = 0;
  const allDelivered = new Promise<void>((resolve) => {
    streams.forEach((stream, index) => {
      stream.onCall = () => {
        if (stream.calls === target[index] && ++finished === streams.length) resolve();
      };
    });
  });
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < FAN_OUT_EVENTS) {
      next++;
      await postEvent(relay, computer.deviceToken).done;
    }
  };
  await Promise.all(Array.from({ length: FAN_OUT_CONCURRENCY }, sender));
  await allDelivered;
  const seconds = (performance.now() - started) / 1000;
  return {
    eventsPerSecond: FAN_OUT_EVENTS / seconds,
    deliveriesPerSecond: (FAN_OUT_EVENTS * streams.length) / seconds,
  };
}

async function settledMemory(relay: RelayProcess) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return relay.memoryAfterGc();
}

async function run(): Promise<string[][]> {
  const dataDir = await mkdtemp(join(tmpdir(), "ringback-relay-bench-"));
  const relay = await startRelayProcess(dataDir);
  try {
    const computer = (await api(relay, "/v1/accounts", null, {
      deviceName: "bench pc",
      deviceKind: "computer",
    })) as Credentials;
    const code = ((await api(relay, "/v1/pairing-codes", computer.deviceToken, {})) as { code: string }).code;
    const phone = (await api(relay, "/v1/pairing-codes/redeem", null, {
      code,
      deviceName: "bench phone",
      deviceKind: "phone",
    })) as Credentials;

    const one = await latency(relay, computer, phone, 1, LATENCY_EVENTS.one);
    const hundred = await latency(relay, computer, phone, 100, LATENCY_EVENTS.hundred);

    // Open and close as many streams first, so the heap has already grown to hold them: the delta is then what
    // the streams keep, not the runtime's one-off growth.
    for (const stream of await subscribe(relay, phone.deviceToken, IDLE_CONNECTIONS)) stream.close();
    const before = await settledMemory(relay);
    const idle = await subscribe(relay, phone.deviceToken, IDLE_CONNECTIONS);
    const after = await settledMemory(relay);
    const fan = await fanOut(relay, computer, idle);
    for (const stream of idle) stream.close();

    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const perStream = (bytes: number) => `${(bytes / IDLE_CONNECTIONS / 1024).toFixed(1)} KiB`;
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
      [
        `events/s sustained to ${FAN_OUT_SUBSCRIBERS} SSE subscribers`,
        `${Math.round(fan.eventsPerSecond)} events/s (${Math.round(fan.deliveriesPerSecond).toLocaleString("en")} deliveries/s)`,
        `${FAN_OUT_EVENTS} events, ${FAN_OUT_CONCURRENCY} posting at once`,
      ],
      [
        "relay memory per idle SSE connection",
        `${perStream(after.rss - before.rss)} RSS (${perStream(after.heapUsed - before.heapUsed)} JS heap)`,
        `delta over ${IDLE_CONNECTIONS} streams, after GC`,
      ],
    ];
  } finally {
    await relay.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: string[][]): void {
  const header = ["measure", "result", "sample"];
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  console.log(
    `\nringback relay bench: loopback, relay in its own process, Node ${process.version}, sealed ${SEALED_BYTES} B\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

const watchdog = setTimeout(() => {
  console.error(`relay bench: over its ${BENCH_BUDGET_MS / 1000} s budget, stopping.`);
  process.exit(1);
}, BENCH_BUDGET_MS);
watchdog.unref();

const started = performance.now();
run().then(
  (rows) => {
    printTable(rows);
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    agent.destroy();
    postAgent.destroy();
  },
  (error: unknown) => {
    console.error("relay bench failed:", error);
    process.exit(1);
  },
);
