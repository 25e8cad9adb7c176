import type { FakeMultica } from "@ringback/fake-multica";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { openReportPost } from "./helpers/daemon-process.js";
import { blockedCatchUps, makeWatchingHome, TRACKER_CHECKS } from "./helpers/tracker-daemon.js";

/** Two daemon starts and two reconnects on a loaded machine. */
const SCENARIO_TIMEOUT_MS = 180_000;

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
      await using watching = await makeWatchingHome();
      const { fake, state, user, agent, issueAtWork, home } = watching;
      const daemon = await watching.startDaemon();
      const deploy = issueAtWork("Deploy to staging");
      const cleanup = issueAtWork("Clean up the old login page");

      const away = await disconnect(fake);
      state.changeIssueStatus(deploy.issue.id, "blocked", { type: "agent", id: agent.id });
      const explanation = state.postAgentComment(deploy.task.id, "I need the staging password to go on.");
      state.changeIssueStatus(cleanup.issue.id, "blocked", { type: "member", id: user.id });
      away.reconnect();

      await eventually(() => blockedCatchUps(daemon).length === 2, { checks: TRACKER_CHECKS });
      expect(blockedCatchUps(daemon)[1]).toContain("(2 found, 1 by agents)");
      const post = await eventually(() => home.relay.posts[0], {
        on: home.relay.changes,
        checks: TRACKER_CHECKS,
      });
      const call = await openReportPost(home.path, post);
      expect(call.trackerQuestion).toEqual({
        trigger: "blocked",
        question: "I need the staging password to go on.",
        commentId: explanation.id,
      });
      expect(call.report.tracker).toMatchObject({ issueId: deploy.issue.id, agentName: "Claude" });
      expect(call.brief.title).toMatch(/^Claude needs you on RING-\d+$/);

      // A restart, whose catch-up looks back to where the last run got to, then a reconnect whose catch-up (five
      // minutes back): each finds the same move again.
      await daemon.stop();
      const restarted = await watching.startDaemon();
      const foundAgain = () =>
        restarted.stderr().match(/asks on RING-\d+ \(blocked\): already queued/g) ?? [];
      await eventually(() => foundAgain().length === 1, { checks: TRACKER_CHECKS });
      const awayAgain = await disconnect(fake);
      awayAgain.reconnect();
      await eventually(() => foundAgain().length === 2, { checks: TRACKER_CHECKS });

      expect(blockedCatchUps(restarted)).toEqual([
        expect.stringContaining("(2 found, 1 by agents)"),
        expect.stringContaining("(2 found, 1 by agents)"),
      ]);
      expect(home.relay.posts.map(({ body }) => body.eventId)).toEqual([post.body.eventId]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
