import { performance } from "node:perf_hooks";
import { postEvent } from "./bench-client.ts";
import type { SseSubscriber } from "./sse-subscriber.ts";

export interface Latency {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

export interface Throughput {
  readonly eventsPerSecond: number;
  readonly deliveriesPerSecond: number;
}

/**
 * Rejects when the server ends any of `streams`: a measure waiting for every stream would otherwise wait until the
 * bench's budget runs out (the relay closes a device's oldest streams beyond its limit, for one).
 */
export function streamEnded(streams: readonly SseSubscriber[]): Promise<never> {
  return new Promise<never>((_, reject) => {
    for (const stream of streams)
      stream.onEnd = () =>
        reject(new Error("the server ended a measured SSE stream before the measure finished"));
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Posts `events` one at a time; each event's time from post to each subscriber is one sample. */
export async function latency(
  baseUrl: string,
  computerToken: string,
  streams: readonly SseSubscriber[],
  events: number,
): Promise<Latency> {
  const samples: number[] = [];
  const ended = streamEnded(streams);
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
    const posted = postEvent(baseUrl, computerToken);
    current = posted.eventId;
    await Promise.race([Promise.all([posted.done, delivered]), ended]);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

/** Resolves once each stream has had `events` more calls; rejects when the server ends one of them. */
function everyEventDelivered(streams: readonly SseSubscriber[], events: number): Promise<void> {
  const target = streams.map((stream) => stream.calls + events);
  let finished = 0;
  const delivered = new Promise<void>((resolve) => {
    streams.forEach((stream, index) => {
      stream.onCall = () => {
        if (stream.calls === target[index] && ++finished === streams.length) resolve();
      };
    });
  });
  return Promise.race([delivered, streamEnded(streams)]);
}

/**
 * Posts `events` as fast as `concurrency` daemons can; the clock stops when every subscriber has every event.
 */
export async function fanOut(
  baseUrl: string,
  computerToken: string,
  streams: readonly SseSubscriber[],
  events: number,
  concurrency: number,
  sealedBytes?: number,
): Promise<Throughput> {
  const allDelivered = everyEventDelivered(streams, events);
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < events) {
      next++;
      await postEvent(baseUrl, computerToken, sealedBytes).done;
    }
  };
  await Promise.all([...Array.from({ length: concurrency }, sender), allDelivered]);
  const seconds = (performance.now() - started) / 1000;
  return { eventsPerSecond: events / seconds, deliveriesPerSecond: (events * streams.length) / seconds };
}

/**
 * Posts `events` at a steady `eventsPerSecond`, whatever the answers' pace (an offered load, the same for every
 * deployment), and resolves once every subscriber has every event.
 */
export async function fanOutAtRate(
  baseUrl: string,
  computerToken: string,
  streams: readonly SseSubscriber[],
  events: number,
  eventsPerSecond: number,
  sealedBytes?: number,
): Promise<void> {
  const allDelivered = everyEventDelivered(streams, events);
  const started = performance.now();
  const posts: Promise<unknown>[] = [];
  const posting = (async () => {
    for (let index = 0; index < events; index++) {
      const due = started + (index * 1000) / eventsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(postEvent(baseUrl, computerToken, sealedBytes).done);
    }
    await Promise.all(posts);
  })();
  await Promise.all([posting, allDelivered]);
}
