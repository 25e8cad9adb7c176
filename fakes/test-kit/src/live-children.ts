import type { ChildProcess } from "node:child_process";
import { onRunEnd } from "./run-end.js";

/** The children still running, with whether each leads its own process group. */
const live = new Map<ChildProcess, boolean>();
/** Unregisters `killLive` from the run's end; set while a child runs. */
let stopWatching: (() => void) | undefined;

/** SIGKILLs every child still running (its group, when it leads one): the test process is ending without them. */
function killLive(): void {
  for (const [child, isGroupLeader] of live) {
    if (child.pid === undefined) continue;
    try {
      if (isGroupLeader) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Kills `child` when this process ends with it still running (an exit, SIGINT, SIGTERM, its vitest gone: `onRunEnd`),
 * so a run that was interrupted (a test timed out, a worker torn down, Ctrl-C) leaves no process behind.
 */
export function killOnExit(child: ChildProcess, isGroupLeader: boolean): void {
  stopWatching ??= onRunEnd(killLive);
  live.set(child, isGroupLeader);
  child.once("exit", () => {
    live.delete(child);
    if (live.size > 0) return;
    stopWatching?.();
    stopWatching = undefined;
  });
}
