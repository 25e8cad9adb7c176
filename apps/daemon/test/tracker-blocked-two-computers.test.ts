import { taskIdDigest } from "@ringback/e2e-crypto";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { eventually, makeTemporaryDirectory, startScriptedRelay } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import {
  readDaemonKey,
  readLocalKey,
  startDaemonProcess,
  writeRelayLogin,
} from "./helpers/daemon-process.js";
import { duplicateRule } from "./helpers/duplicate-rule.js";
import {
  blockedCatchUps,
  loggedMoveTime,
  outboxSettled,
  TRACKER_CHECKS,
  watchWorkspace,
  wholeSeconds,
} from "./helpers/tracker-daemon.js";
import { seedAgentAtWork } from "./helpers/tracker-seed.js";

/** Two daemon starts and a reconnect held back by the tracker's growing waits, on a loaded machine. */
const SCENARIO_TIMEOUT_MS = 180_000;

/** A computer of the account: its own data dir and daemon process, posting to `relayUrl`, watching the workspace. */
async function computer(fake: FakeMultica, relayUrl: string, token: string, workspaceId: string) {
  const home = await makeTemporaryDirectory();
  await writeRelayLogin(home.path, relayUrl);
  const daemon = await startDaemonProcess(home.path, {
    RINGBACK_SERVER_URL: relayUrl,
    DAEMON_TRACKER_API_URL: fake.url,
  });
  const localKey = await readLocalKey(home.path);
  await watchWorkspace(daemon, localKey, token, workspaceId);
  await eventually(() => blockedCatchUps(daemon).length === 1, { checks: TRACKER_CHECKS });
  return {
    home: home.path,
    daemon,
    localKey,
    async [Symbol.asyncDispose]() {
      await daemon.kill();
      await home.remove();
    },
  };
}

/** Gives the second computer the first one's end-to-end key, as joining the account does. */
async function shareKey(from: { daemon: { url: string }; localKey: string }, to: typeof from) {
  const headers = (localKey: string) => ({
    authorization: `Bearer ${localKey}`,
    "content-type": "application/json",
  });
  const { key } = (await (
    await fetch(`${from.daemon.url}/e2e/key`, { headers: headers(from.localKey) })
  ).json()) as {
    key: string;
  };
  const put = await fetch(`${to.daemon.url}/e2e/key`, {
    method: "PUT",
    headers: headers(to.localKey),
    body: JSON.stringify({ key }),
  });
  expect(put.status).toBe(200);
}

describe("a move to blocked one computer sees live and another catches up", () => {
  it(
    "rings once between them when the tracker logged the move a second after the issue's update and the issue changed since",
    async () => {
      await using fake = await startFakeMultica();
      const { state, user, workspace, agent, issueAtWork } = seedAgentAtWork(fake);
      // The desk computer has its own token for the tracker, so that it alone can be cut off.
      const deskUser = state.addUser({ name: "Ada" });
      state.addMember(workspace.id, deskUser.id);
      await using relay = await startScriptedRelay(duplicateRule());
      await using laptop = await computer(fake, relay.url, user.token, workspace.id);
      await using desk = await computer(fake, relay.url, deskUser.token, workspace.id);
      await shareKey(laptop, desk);
      const { issue, task } = issueAtWork("Deploy to staging");

      // The desk computer loses the tracker: its token is refused until it is given back.
      const deskToken = deskUser.token;
      deskUser.token = `mul_${"0".repeat(40)}`;
      fake.realtime.dropAll();
      await eventually(() => blockedCatchUps(laptop.daemon).length === 2 && fake.realtime.connections === 1, {
        checks: TRACKER_CHECKS,
      });
      state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: agent.id }, { loggedAfterMs: 1_000 });
      const movedAt = issue.updated_at;
      const explanation = state.postAgentComment(task.id, "I need the staging password to go on.");
      // Written once the move is logged, as an agent explains after moving: the catch-up finds it and does not wait.
      explanation.created_at = loggedMoveTime(state, issue.id);
      await eventually(() => relay.posts.length === 1, { on: relay.changes, checks: TRACKER_CHECKS });
      // The issue changes again before the desk computer is back: its catch-up can only go by the log's time.
      issue.updated_at = wholeSeconds(Date.parse(movedAt) + 2_000);
      deskUser.token = deskToken;

      await eventually(() => blockedCatchUps(desk.daemon).length === 2, { checks: TRACKER_CHECKS });
      expect(blockedCatchUps(desk.daemon)[1]).toContain("(1 found, 1 by agents)");
      await eventually(() => relay.posts.length === 2, { on: relay.changes, checks: TRACKER_CHECKS });
      await outboxSettled(desk.daemon, desk.localKey);

      expect(loggedMoveTime(state, issue.id)).toBe(wholeSeconds(Date.parse(movedAt) + 1_000));
      const key = await readDaemonKey(laptop.home);
      const digest = await taskIdDigest(
        key,
        `question:blocked:${issue.id}:${loggedMoveTime(state, issue.id)}`,
      );
      expect(relay.posts.map(({ body }) => body.taskId)).toEqual([digest, digest]);
      expect(relay.posts.map(({ answeredWith }) => answeredWith)).toEqual([202, 409]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
