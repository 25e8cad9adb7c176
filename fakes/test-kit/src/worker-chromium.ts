/** What the worker's Chromium needs of Playwright's `Browser`: opening contexts, and telling when it is gone. */
export interface SharedBrowser<Options, Context> {
  newContext(options?: Options): Promise<Context>;
  once(event: "disconnected", listener: () => void): unknown;
}

/** A test file's share of the worker's Chromium: the contexts (devices) it opened, closed again by `close()`. */
export interface BrowserForFile<Options, Context> {
  newContext(options?: Options): Promise<Context>;
  /** Closes this file's contexts; Chromium stays for the next file of the worker. */
  close(): Promise<void>;
}

/*
 * Kept on globalThis: a worker that runs many files (isolate: false) evaluates the modules of each file again, and a
 * launch costs seconds of CPU. Playwright kills the browser when the worker exits.
 */
const WORKER_CHROMIUM = Symbol.for("ringback.test-kit.worker-chromium");
type WorkerGlobal = typeof globalThis & { [WORKER_CHROMIUM]?: Promise<unknown> };

/**
 * One Chromium per vitest worker, started by `launch` for the first file that asks, and handed to each later one:
 * nothing carries over from file to file, as each context has its own storage, cookies and service workers.
 * A Chromium that failed to start or crashed is launched again for the next file, not handed out dead.
 */
export async function chromiumForFile<Options, Context extends { close(): Promise<void> }>(
  launch: () => Promise<SharedBrowser<Options, Context>>,
): Promise<BrowserForFile<Options, Context>> {
  const browser = await workerChromium(launch);
  const contexts: Context[] = [];
  return {
    async newContext(options) {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
    async close() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
  };
}

function workerChromium<Browser extends SharedBrowser<unknown, unknown>>(
  launch: () => Promise<Browser>,
): Promise<Browser> {
  const worker = globalThis as WorkerGlobal;
  const running = worker[WORKER_CHROMIUM];
  if (running !== undefined) return running as Promise<Browser>;
  const forget = () => {
    if (worker[WORKER_CHROMIUM] === launched) delete worker[WORKER_CHROMIUM];
  };
  const launched = launch();
  worker[WORKER_CHROMIUM] = launched;
  launched.then((browser) => browser.once("disconnected", forget), forget);
  return launched;
}
