import type { ChildProcess } from "node:child_process";

/** The children still running, with whether each leads its own process group. */
const live = new Map<ChildProcess, boolean>();

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
 * Kills `child` when this process exits with it still running, so a run that was interrupted (a test timed out,
 * a worker torn down) leaves no process behind.
 */
export function killOnExit(child: ChildProcess, isGroupLeader: boolean): void {
  if (live.size === 0) process.once("exit", killLive);
  live.set(child, isGroupLeader);
  child.once("exit", () => {
    live.delete(child);
    if (live.size === 0) process.off("exit", killLive);
  });
}
