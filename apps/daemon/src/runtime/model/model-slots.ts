import { CONCURRENT_BRIEFS_PER_ENDPOINT, modelEndpointKind } from "@ringback/protocol";

interface EndpointQueue {
  running: number;
  waiting: { start: () => void; signal: AbortSignal | undefined; onAbort: () => void }[];
}

/**
 * Model calls at once per endpoint (spec's 3 briefs at once, narrowed by the issue): a local server (loopback or
 * private address) gets one at a time, since it works on one request at a time and a second would only wait at
 * the server with its clock running; a hosted one gets `CONCURRENT_BRIEFS_PER_ENDPOINT.hosted`. A call waiting
 * here has not been sent, so its time limits have not started.
 */
export class ModelSlots {
  readonly #queues = new Map<string, EndpointQueue>();

  /** Runs `work` once the endpoint has a free slot; aborting `signal` while it waits rejects with its reason. */
  async run<T>(baseUrl: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const key = endpointKey(baseUrl);
    const limit = CONCURRENT_BRIEFS_PER_ENDPOINT[modelEndpointKind(baseUrl)];
    const queue = this.#queues.get(key) ?? { running: 0, waiting: [] };
    this.#queues.set(key, queue);
    if (queue.running >= limit) await this.#wait(queue, signal);
    else queue.running++;
    try {
      return await work();
    } finally {
      this.#release(key, queue);
    }
  }

  #wait(queue: EndpointQueue, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal?.removeEventListener("abort", entry.onAbort);
          resolve();
        },
        onAbort: () => {
          queue.waiting.splice(queue.waiting.indexOf(entry), 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", entry.onAbort, { once: true });
      queue.waiting.push(entry);
    });
  }

  #release(key: string, queue: EndpointQueue): void {
    const next = queue.waiting.shift();
    // The slot passes straight to the next call: `running` stays as it is.
    if (next) {
      next.start();
      return;
    }
    queue.running--;
    if (queue.running === 0) this.#queues.delete(key);
  }
}

/** One queue per server: scheme, host and port. */
function endpointKey(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
