import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { RESUME_POINTS_FILE } from "../src/runtime/tracker/resume-points.js";
import { trackerEventId } from "../src/runtime/tracker/tracker-event-id.js";
import type { DaemonProcess } from "./helpers/daemon-process.js";
import type { RelayedHome } from "./helpers/relayed-home.js";
import {
  blockedCatchUps,
  blockedMoveEventId,
  makeWatchingHome,
  outboxSettled,
  TRACKER_CHECKS,
  wholeSeconds,
} from "./helpers/tracker-daemon.js";
import { addIssueAtWork } from "./helpers/tracker-seed.js";

/** Three daemon starts on a loaded machine. */
const SCENARIO_TIMEOUT_MS = 180_000;
const HOUR_MS = 60 * 60_000;

/** Waits until the daemon's log says `eventId` was found again and not queued a second time. */
function foundAgain(daemon: DaemonProcess, eventId: string) {
  return eventually(() => daemon.stderr().includes(`already queued as ${eventId}`), {
    checks: TRACKER_CHECKS,
  });
}

const postedIds = (home: RelayedHome) => home.relay.posts.map(({ body }) => body.eventId);

/** Until the relay has had `count` posts. */
function posted(home: RelayedHome, count: number) {
  return eventually(() => home.relay.posts.length >= count, {
    on: home.relay.changes,
    checks: TRACKER_CHECKS,
  });
}

describe("work an agent did while the daemon was stopped", () => {
  it(
    "a finished task and another agent's move to blocked ring once at the start; nothing rung before rings again, nor at the next start",
    async () => {
      await using watching = await makeWatchingHome();
      const { state, workspace, agent, project, issueAtWork, home } = watching;
      const runtime = state.addRuntime(workspace.id, { status: "online" });
      const codex = state.addAgent(workspace.id, { name: "Codex", runtime_id: runtime.id });
      const beforeFirstStart = issueAtWork("Tidy the README");
      state.finishTask(beforeFirstStart.task.id);
      beforeFirstStart.task.completed_at = wholeSeconds(Date.now() - 10 * 60_000);

      // First start ever: nothing from before it rings. Then one task and one move to blocked ring live.
      const first = await watching.startDaemon();
      const rungLive = issueAtWork("Fix the login redirect");
      state.finishTask(rungLive.task.id);
      const blockedLive = issueAtWork("Deploy to staging");
      state.changeIssueStatus(blockedLive.issue.id, "blocked", { type: "agent", id: agent.id });
      state.postAgentComment(blockedLive.task.id, "I need the staging password to go on.");
      const rungBefore = [trackerEventId(rungLive.task.id), blockedMoveEventId(state, blockedLive.issue.id)];
      await posted(home, 2);
      expect(postedIds(home).sort()).toEqual([...rungBefore].sort());
      await first.stop();
      const stored = JSON.parse(await readFile(join(home.path, RESUME_POINTS_FILE), "utf8"));
      expect(Object.keys(stored.resumeSince)).toEqual([workspace.id]);

      // While it is stopped: Claude finishes a task, Codex moves its issue to blocked and says why.
      const finishedAway = issueAtWork("Write the release notes");
      state.finishTask(finishedAway.task.id, { report: "Release notes written." });
      const blockedAway = addIssueAtWork(state, { workspace, agent: codex, project }, "Rotate the API keys");
      state.changeIssueStatus(blockedAway.issue.id, "blocked", { type: "agent", id: codex.id });
      state.postAgentComment(blockedAway.task.id, "Which vault holds the new keys?");
      const rungAtStart = [
        trackerEventId(finishedAway.task.id),
        blockedMoveEventId(state, blockedAway.issue.id),
      ];

      const second = await watching.startDaemon();
      expect(second.stderr()).toMatch(/workspace \S+ catches up from \S+, where the last run got to/);
      expect(blockedCatchUps(second)[0]).toContain("(2 found, 2 by agents)");
      await posted(home, 4);
      for (const eventId of rungBefore) await foundAgain(second, eventId);
      await outboxSettled(second, await watching.localKey());
      expect(postedIds(home)).toHaveLength(4);
      expect(postedIds(home).slice(2).sort()).toEqual([...rungAtStart].sort());

      // The next start finds all four again and rings none of them.
      await second.stop();
      const third = await watching.startDaemon();
      for (const eventId of [...rungBefore, ...rungAtStart]) await foundAgain(third, eventId);
      await outboxSettled(third, await watching.localKey());

      expect(postedIds(home)).toHaveLength(4);
      expect(home.relay.posts.map(({ answeredWith }) => answeredWith)).toEqual([202, 202, 202, 202]);
      expect(postedIds(home)).not.toContain(trackerEventId(beforeFirstStart.task.id));
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    "a move to blocked that rang under the issue's update time (its log unread, as older versions keyed it) does not ring again at the start, though its log dates it a second later",
    async () => {
      await using watching = await makeWatchingHome();
      const { fake, state, agent, issueAtWork, home } = watching;
      const first = await watching.startDaemon();
      const { issue, task } = issueAtWork("Deploy to staging");
      fake.faults.serverError(`/api/issues/${issue.id}/timeline`, { status: 404, times: 1 });
      state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: agent.id }, { loggedAfterMs: 1_000 });
      const keyRung = `question:blocked:${issue.id}:${issue.updated_at}`;
      state.postAgentComment(task.id, "I need the staging password to go on.");
      await posted(home, 1);
      expect(first.stderr()).toContain(`${keyRung} keeps the issue's update time as its key`);
      expect(postedIds(home)).toEqual([trackerEventId(keyRung)]);
      await first.stop();

      const second = await watching.startDaemon();
      await eventually(() => second.stderr().includes(`rang already as ${keyRung}; no second call`), {
        checks: TRACKER_CHECKS,
      });
      await outboxSettled(second, await watching.localKey());

      expect(blockedCatchUps(second)[0]).toContain("(1 found, 1 by agents)");
      expect(postedIds(home)).toEqual([trackerEventId(keyRung)]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    "rings only what is less than 24 hours old when the daemon was stopped longer",
    async () => {
      await using watching = await makeWatchingHome();
      const { state, workspace, agent, issueAtWork, home } = watching;
      const first = await watching.startDaemon();
      await first.stop();

      // Stopped three days: a task finished and a move to blocked 30 hours ago, a task finished 2 hours ago.
      const nowMs = Date.now();
      await writeFile(
        join(home.path, RESUME_POINTS_FILE),
        JSON.stringify({ version: 1, resumeSince: { [workspace.id]: new Date(nowMs - 72 * HOUR_MS) } }),
        { mode: 0o600 },
      );
      const oldTask = issueAtWork("Old report");
      state.finishTask(oldTask.task.id);
      oldTask.task.completed_at = wholeSeconds(nowMs - 30 * HOUR_MS);
      const oldMove = issueAtWork("Old question");
      state.changeIssueStatus(oldMove.issue.id, "blocked", { type: "agent", id: agent.id });
      oldMove.issue.updated_at = wholeSeconds(nowMs - 30 * HOUR_MS);
      for (const activity of state.activities.values())
        if (activity.issue_id === oldMove.issue.id) activity.created_at = oldMove.issue.updated_at;
      const recentTask = issueAtWork("Recent report");
      state.finishTask(recentTask.task.id);
      recentTask.task.completed_at = wholeSeconds(nowMs - 2 * HOUR_MS);

      const second = await watching.startDaemon();
      await posted(home, 1);
      await outboxSettled(second, await watching.localKey());

      expect(second.stderr()).toContain("a start looks back 24 hours at most");
      expect(second.stderr()).toMatch(/caught up on tasks finished since .* \(1 found\)/);
      expect(blockedCatchUps(second)[0]).toContain("(0 found, 0 by agents)");
      expect(postedIds(home)).toEqual([trackerEventId(recentTask.task.id)]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
