import { join } from "node:path";
import { joinWithLink } from "@ringback/client";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { PairingResult } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  daemonEnv,
  readLocalKey,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { startListeningTerminal } from "./helpers/listening-terminal.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";
import { seedAgentAtWork } from "./helpers/tracker-seed.js";

/** Everything here crosses processes (tracker -> daemon -> relay -> terminal, and back) on a busy machine. */
const CHECKS = { checks: 3_000 };

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let relay: RelayProcess;
let tracker: FakeMultica;
let daemon: DaemonProcess;
let terminal: Awaited<ReturnType<typeof startListeningTerminal>>;

/** A user "Ada" on the tracker, the agent "Claude" working an issue of the project "Website" there. */
function seedTracker(fake: FakeMultica) {
  const seed = seedAgentAtWork(fake);
  return { ...seed, ...seed.issueAtWork("Move the login page") };
}

let seed: ReturnType<typeof seedTracker>;

beforeAll(async () => {
  directory = await makeTemporaryDirectory("ringback-listen-question-");
  home = join(directory.path, "home");
  relay = await startRelayProcess({ dataDir: join(directory.path, "relay"), args: ["--open-signup"] });
  tracker = await startFakeMultica();
  seed = seedTracker(tracker);
  expect((await runCli(["login", "--server", relay.url, "--name", "laptop"], daemonEnv(home))).code).toBe(0);
  daemon = await startDaemonProcess(home, { DAEMON_TRACKER_API_URL: tracker.url });
  await eventually(() => daemon.stderr().includes("relay link open"), CHECKS);
  const settings = await fetch(`${daemon.url}/tracker/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${await readLocalKey(home)}`, "content-type": "application/json" },
    body: JSON.stringify({ token: seed.user.token, workspaceIds: [seed.workspace.id] }),
  });
  expect(settings.status).toBe(200);
  await eventually(() => daemon.stderr().includes("caught up on tasks finished"), CHECKS);
  // The terminal joins as `ringback listen --pair '<link>'` does.
  const pair = await runCli(["pair", "--json"], daemonEnv(home));
  const { link } = PairingResult.parse(JSON.parse(pair.stdout));
  const joined = await joinWithLink(link, { deviceName: "Terminal", deviceKind: "phone" });
  terminal = await startListeningTerminal(relay.url, joined.key, joined);
}, 120_000);

afterAll(async () => {
  terminal?.center.stop();
  await daemon?.kill();
  await relay?.stop();
  await tracker?.close();
  await directory?.remove();
});

describe("an agent's question on the tracker, in the terminal companion", () => {
  it("rings as Needs you with who asks, the issue and the question; a typed reply becomes the user's comment under it", async () => {
    const { state, user, issue, task } = seed;
    const { session, output } = terminal;
    const asked = state.postAgentComment(
      task.id,
      `[@Ada](mention://member/${user.id}) should the old login page redirect to the new one, or be removed?`,
    );

    await eventually(() => output().includes("Needs you: "), CHECKS);
    const ringing = output();
    expect(ringing).toContain(
      'Needs you: Website\nClaude needs you on RING-1\nRING-1 "Move the login page"\n',
    );
    expect(ringing).toContain(
      "The question:\n  @Ada should the old login page redirect to the new one, or be removed?",
    );
    expect(ringing).toContain("a = answer   r = reject   k = acknowledge");
    expect(ringing).not.toContain("allow =");
    await session.command("allow");
    expect(output()).toContain("This call does not ask for a decision.\n");

    await session.command("a");
    await eventually(() => output().includes("In call with Website: Claude needs you on RING-1"), CHECKS);
    expect(output()).toContain(
      "It wrote: @Ada should the old login page redirect to the new one, or be removed?\n\nYour reply will be posted as a comment on the issue.",
    );
    expect(output()).toContain("reply <text> = Your reply is posted as a comment on the issue   h = hang up");
    await session.command("reply Redirect it for a month, then remove it.");
    await eventually(() => output().includes("Delivered\n"), CHECKS);

    const replies = [...state.comments.values()].filter(
      (comment) => comment.issue_id === issue.id && comment.author_type === "member",
    );
    expect(replies.map(({ content, author_id, parent_id }) => ({ content, author_id, parent_id }))).toEqual([
      { content: "Redirect it for a month, then remove it.", author_id: user.id, parent_id: asked.id },
    ]);
  }, 120_000);
});
