import type { Agent } from "node:http";
import { type Credentials, SMALL_SEALED_BYTES, subscribe, tokensOf } from "./bench-client.ts";
import type { Cleanup } from "./cleanup.ts";
import { fanOut, type Throughput } from "./measures.ts";
import { startBareSseProcess } from "./relay-process.ts";
import type { ServerProcess } from "./server-process.ts";
import type { SseSubscriber } from "./sse-subscriber.ts";

/** Figures of the relay next to the same figure of a bare `node:http` SSE server, measured in the same run. */
export interface AgainstBare<T> {
  readonly relay: T;
  readonly bare: T;
}

export interface StreamMemory {
  /** RSS after GC with the streams open, divided by the streams: what each costs, the process included. */
  readonly rssPerStream: number;
  /** RSS after GC with the streams open minus before they opened, per stream. */
  readonly rssDeltaPerStream: number;
  /** JS heap in use after GC with the streams open minus before, per stream: what the server's code keeps for each. */
  readonly heapDeltaPerStream: number;
  readonly rss: number;
}

/** Who posts, and the devices that subscribe (one stream each). */
export interface Posting {
  readonly poster: Credentials;
  readonly subscribers: readonly Credentials[];
}

/**
 * A server under measure, and a fresh account on it for each measure (a new stream of an account gets every call
 * still ringing as its backlog: each measure starts from none).
 */
export interface Target {
  readonly server: ServerProcess;
  freshAccount(subscribers: number): Promise<Posting>;
}

const BARE_TOKEN: Credentials = { deviceToken: "bare" };
const barePosting = (subscribers: number): Posting => ({
  poster: BARE_TOKEN,
  subscribers: Array.from({ length: subscribers }, () => BARE_TOKEN),
});
const SETTLE_MS = 500;

async function withBare<T>(cleanup: Cleanup, measure: (bare: Target) => Promise<T>): Promise<T> {
  const bare = await startBareSseProcess();
  cleanup.add(() => bare.stop());
  try {
    return await measure({ server: bare, freshAccount: async (subscribers) => barePosting(subscribers) });
  } finally {
    await bare.stop();
  }
}

function closeAll(streams: readonly SseSubscriber[]): void {
  for (const stream of streams) stream.close();
}

/**
 * Deliveries/s of `events` 1 KB events to `subscribers` streams, `concurrency` posting at once; the best of `rounds`
 * after a warm-up, the bare server and the relay taking turns so both see the same machine.
 */
export async function fanOutAgainstBare(
  cleanup: Cleanup,
  relay: Target,
  agent: Agent,
  options: { subscribers: number; events: number; concurrency: number; rounds: number },
): Promise<AgainstBare<Throughput>> {
  const measure = async (target: Target): Promise<Throughput> => {
    const { poster, subscribers } = await target.freshAccount(options.subscribers);
    const streams = await subscribe(target.server.url, tokensOf(subscribers), agent);
    try {
      const run = (events: number) =>
        fanOut(
          target.server.url,
          poster.deviceToken,
          streams,
          events,
          options.concurrency,
          SMALL_SEALED_BYTES,
        );
      await run(Math.ceil(options.events / 10));
      return await run(options.events);
    } finally {
      closeAll(streams);
    }
  };
  const best = (all: Throughput[]) =>
    all.reduce((a, b) => (a.deliveriesPerSecond >= b.deliveriesPerSecond ? a : b));
  const relayRuns: Throughput[] = [];
  const bareRuns: Throughput[] = [];
  for (let round = 0; round < options.rounds; round++) {
    bareRuns.push(await withBare(cleanup, measure));
    relayRuns.push(await measure(relay));
  }
  return { relay: best(relayRuns), bare: best(bareRuns) };
}

async function streamMemory(target: Target, count: number, agent: Agent): Promise<StreamMemory> {
  const settled = async () => {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return target.server.memoryAfterGc();
  };
  const { subscribers } = await target.freshAccount(count);
  const before = await settled();
  const streams = await subscribe(target.server.url, tokensOf(subscribers), agent);
  try {
    const after = await settled();
    const open = streams.filter((stream) => stream.isOpen).length;
    if (open < count) throw new Error(`${count - open} of ${count} idle streams were ended by the server`);
    return {
      rss: after.rss,
      rssPerStream: after.rss / count,
      rssDeltaPerStream: (after.rss - before.rss) / count,
      heapDeltaPerStream: (after.heapUsed - before.heapUsed) / count,
    };
  } finally {
    closeAll(streams);
  }
}

/** RSS of `count` idle SSE streams held by the relay and by the bare server. */
export async function idleStreamsAgainstBare(
  cleanup: Cleanup,
  relay: Target,
  agent: Agent,
  count: number,
): Promise<AgainstBare<StreamMemory>> {
  const bare = await withBare(cleanup, (target) => streamMemory(target, count, agent));
  return { relay: await streamMemory(relay, count, agent), bare };
}
