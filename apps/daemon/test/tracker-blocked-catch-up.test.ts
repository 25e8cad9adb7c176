import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { type DaemonProcess, openReportPost, readLocalKey } from "./helpers/daemon-process.js";
import { duplicateRule } from "./helpers/duplicate-rule.js";
import { makeRelayedHome } from "./helpers/relayed-home.js";
import { seedAgentAtWork } from "./helpers/tracker-seed.js";

/** Two daemon starts and two reconnects on a loaded machine. */
const SCENARIO_TIMEOUT_MS = 180_000;

/** Saves the tracker token and the workspace on the daemon, as the settings screen does. */
async function watch(daemon: DaemonProcess, localKey: string, token: string, workspaceId: string) {
  const response = await fetch(`${daemon.url}/tracker/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify({ token, workspaceIds: [workspaceId] }),
  });
  expect(response.status).toBe(200);
}

/** The daemon's catch-ups of moves to blocked so far, as its log says them. */
function blockedCatchUps(daemon: DaemonProcess): string[] {
  return daemon.stderr().match(/caught up on moves to blocked .*$/gm) ?? [];
}

/** Cuts the daemon's realtime connection and refuses it until `reconnect()`: what the daemon misses, it catches up. */
async function disconnect(fake: FakeMultica) {
  fake.faults.serverError("/ws", { times: 1_000_000 });
  fake.realtime.dropAll();
  await eventually(() => fake.realtime.connections === 0);
  return { reconnect: () => fake.faults.clear() };
}

describe("a move to blocked made while the daemon was away from the tracker", () => {
  it(
    "rings once at the reconnect's catch-up when the agent made it, reading its explanation; a person's move does not ring; after a restart it does not ring again",
    async () => {
      await using fake = await startFakeMultica();
      const { state, user, workspace, agent, issueAtWork } = seedAgentAtWork(fake);
      await using home = await makeRelayedHome({ script: duplicateRule() });
      await home.link();
      const env = { DAEMON_TRACKER_API_URL: fake.url };
      const daemon = await home.startDaemon(env);
      await watch(daemon, await readLocalKey(home.path), user.token, workspace.id);
      await eventually(() => blockedCatchUps(daemon).length === 1, { checks: 3_000 });
      const deploy = issueAtWork("Deploy to staging");
      const cleanup = issueAtWork("Clean up the old login page");

      const away = await disconnect(fake);
      state.changeIssueStatus(deploy.issue.id, "blocked", { type: "agent", id: agent.id });
      const explanation = state.postAgentComment(deploy.task.id, "I need the staging password to go on.");
      state.changeIssueStatus(cleanup.issue.id, "blocked", { type: "member", id: user.id });
      away.reconnect();

      await eventually(() => blockedCatchUps(daemon).length === 2, { checks: 3_000 });
      expect(blockedCatchUps(daemon)[1]).toContain("(2 found, 1 by agents)");
      const post = await eventually(() => home.relay.posts[0], { on: home.relay.changes, checks: 3_000 });
      const call = await openReportPost(home.path, post);
      expect(call.trackerQuestion).toEqual({
        trigger: "blocked",
        question: "I need the staging password to go on.",
        commentId: explanation.id,
      });
      expect(call.report.tracker).toMatchObject({ issueId: deploy.issue.id, agentName: "Claude" });
      expect(call.brief.title).toMatch(/^Claude needs you on RING-\d+$/);

      // A restart, then a reconnect whose catch-up (five minutes back) finds the same move again.
      await daemon.stop();
      const restarted = await home.startDaemon(env);
      await eventually(() => blockedCatchUps(restarted).length === 1, { checks: 3_000 });
      const awayAgain = await disconnect(fake);
      awayAgain.reconnect();
      await eventually(() => /asks on RING-\d+ \(blocked\): already queued/.test(restarted.stderr()), {
        checks: 3_000,
      });

      expect(blockedCatchUps(restarted)[1]).toContain("(2 found, 1 by agents)");
      expect(home.relay.posts.map(({ body }) => body.eventId)).toEqual([post.body.eventId]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
