import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { eventually } from "@ringback/test-kit";
import { expect } from "vitest";
import { trackerEventId } from "../../src/runtime/tracker/tracker-event-id.js";
import { type DaemonProcess, readLocalKey, readLocalStatus } from "./daemon-process.js";
import { duplicateRule } from "./duplicate-rule.js";
import { makeRelayedHome } from "./relayed-home.js";
import { seedAgentAtWork } from "./tracker-seed.js";

/** Patient checks (20 ms apart) for a daemon's catch-up and its posts on a loaded machine. */
export const TRACKER_CHECKS = 3_000;

/**
 * A tracker simulator where the agent Claude works (tracker-seed.ts) and a data dir whose daemons (`ringback run`
 * processes) watch its workspace and post to a relay with the duplicate rule. Disposing stops them all.
 */
export async function makeWatchingHome() {
  const fake = await startFakeMultica();
  const seed = seedAgentAtWork(fake);
  const home = await makeRelayedHome({ script: duplicateRule() });
  await home.link();
  const localKey = () => readLocalKey(home.path);
  let isConfigured = false;
  return {
    ...seed,
    fake,
    home,
    /** Starts a daemon (the first one saves the tracker settings); resolves once its first catch-up is done. */
    async startDaemon(): Promise<DaemonProcess> {
      const daemon = await home.startDaemon({ DAEMON_TRACKER_API_URL: fake.url });
      if (!isConfigured) await watchWorkspace(daemon, await localKey(), seed.user.token, seed.workspace.id);
      isConfigured = true;
      await eventually(() => blockedCatchUps(daemon).length === 1, { checks: TRACKER_CHECKS });
      return daemon;
    },
    localKey,
    async [Symbol.asyncDispose]() {
      await home[Symbol.asyncDispose]();
      await fake.close();
    },
  };
}

/** Saves the tracker token and the workspace on the daemon, as the settings screen does. */
export async function watchWorkspace(
  daemon: DaemonProcess,
  localKey: string,
  token: string,
  workspaceId: string,
): Promise<void> {
  const response = await fetch(`${daemon.url}/tracker/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify({ token, workspaceIds: [workspaceId] }),
  });
  expect(response.status).toBe(200);
}

/** The daemon's catch-ups of moves to blocked so far, as its log says them. */
export function blockedCatchUps(daemon: DaemonProcess): string[] {
  return daemon.stderr().match(/caught up on moves to blocked .*$/gm) ?? [];
}

/** Until the daemon's outbox holds nothing more to send. */
export function outboxSettled(daemon: DaemonProcess, localKey: string): Promise<boolean> {
  return eventually(async () => (await readLocalStatus(daemon, localKey)).outbox.waiting === 0);
}

/** An RFC3339 time in whole seconds, as the tracker writes it. */
export function wholeSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The time the tracker logged the issue's latest status move. */
export function loggedMoveTime(state: FakeMultica["state"], issueId: string): string {
  const moves = [...state.activities.values()].filter(
    (activity) => activity.issue_id === issueId && activity.action === "status_changed",
  );
  const latest = moves.at(-1);
  if (!latest) throw new Error(`issue ${issueId} has no status move`);
  return latest.created_at;
}

/** The event id a move to blocked rings under on every computer: the issue and the time the tracker logged the move. */
export function blockedMoveEventId(state: FakeMultica["state"], issueId: string): string {
  return trackerEventId(`question:blocked:${issueId}:${loggedMoveTime(state, issueId)}`);
}
