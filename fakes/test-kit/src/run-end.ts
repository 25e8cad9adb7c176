/** The signals that end a process by default, which Node dies of without its "exit" event. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** The cleanups still to run, each once. */
const cleanups = new Set<() => void>();

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // The process is ending: the other cleanups still run.
    }
  }
}

/*
 * Never process.exit() here: in a vitest worker it throws while a test file runs. The process ends by the signal
 * itself instead, raised again once nothing of ours listens.
 */

const onSignal = (signal: EndingSignal) => {
  runAll();
  uninstall();
  // Another listener (vitest's own, Playwright's) decides how the process ends; none: the signal's default, death.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
};

/** vitest itself is gone (killed or interrupted): its worker would otherwise run on, orphaned, with what it started. */
const onOrphaned = () => {
  runAll();
  uninstall();
  process.kill(process.pid, process.listenerCount("SIGTERM") === 0 ? "SIGTERM" : "SIGKILL");
};

/** Set by `endWithParent`: the worker ends with its vitest even with no cleanup registered. */
let isEndingWithParent = false;

function install(): void {
  process.once("exit", runAll);
  for (const signal of ENDING_SIGNALS) process.once(signal, onSignal);
  if (process.send !== undefined && !isEndingWithParent) process.once("disconnect", onOrphaned);
}

function uninstall(): void {
  process.off("exit", runAll);
  for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  if (!isEndingWithParent) process.off("disconnect", onOrphaned);
}

/**
 * Runs `cleanup` (synchronous: the process is ending) however this process ends with it still registered: a normal
 * exit; SIGINT, SIGTERM or SIGHUP, of which Node dies without its "exit" event unless someone listens (Ctrl-C sends
 * SIGINT, vitest's pool ends a worker with SIGTERM, after a timeout too); or the IPC channel to the vitest that forked
 * this worker closing. The process then ends as the signal would have ended it (where another listener, vitest's or
 * Playwright's, takes the signal, that one decides), an orphaned worker as by SIGTERM. Returns the function that
 * unregisters it. Only SIGKILL gets past it.
 */
export function onRunEnd(cleanup: () => void): () => void {
  if (cleanups.size === 0) install();
  cleanups.add(cleanup);
  // A worker whose vitest went away before anything was registered: it ends now.
  if (process.send !== undefined && !process.connected) onOrphaned();
  return () => {
    if (!cleanups.delete(cleanup) || cleanups.size > 0) return;
    uninstall();
  };
}

/**
 * Ends this process when the one that forked it with an IPC channel (vitest, for its pool's workers) is gone, whatever
 * it holds: killed or interrupted, vitest never ends an orphaned worker, which runs on with the Chromium or servers it
 * started. The registered cleanups run first. The test kit's vitest setup file calls it in every worker.
 */
export function endWithParent(): void {
  if (process.send === undefined || isEndingWithParent) return;
  isEndingWithParent = true;
  process.off("disconnect", onOrphaned);
  process.once("disconnect", onOrphaned);
  if (!process.connected) onOrphaned();
}
