import { randomUUID } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import { type Device, UI_WAIT_MS } from "../harness/device.ts";
import { type FakeAgentCli, makeFakeAgentCli } from "../harness/fake-agent-cli.ts";
import { filesHolding, readRelayDataFiles } from "../harness/relay-data-files.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";

// One system for the file, with a phone and a laptop: the daemon finds a fake `claude` first on its PATH, so a
// reply after hang-up resumes it as it would resume Claude Code. What the app says, in the devices' language.
const texts = CORE_TEXTS.en;
let agentDirectory: TemporaryDirectory;
let agent: FakeAgentCli;
let system: RingbackSystem;
let phone: Device;
let laptop: Device;

beforeAll(async () => {
  agentDirectory = await makeTemporaryDirectory("ringback-e2e-agent-");
  agent = await makeFakeAgentCli(agentDirectory.path);
  system = await startSystem({ daemonEnv: { PATH: agent.pathWith() } });
  phone = await system.addDevice("phone");
  laptop = await system.addDevice("laptop");
});

afterAll(async () => {
  try {
    await system?.[Symbol.asyncDispose]();
  } finally {
    await agentDirectory?.remove();
  }
});

/** The relay's files (startSystem keeps its data in `<system directory>/relay`). */
function relayDataFiles() {
  return readRelayDataFiles(join(system.directory.path, "relay"));
}

/** The agent finishes a turn, the phone answers (the laptop stops ringing) and hangs up; returns the call's id. */
async function callAnsweredOnPhone(report: string, turn: { sessionId: string; promptId: string }) {
  await system.agentFinishes(report, { ...turn, cwd: system.projectDir });
  const eventId = await phone.waitForRinging();
  await laptop.waitForRinging(eventId);
  await phone.answer(eventId);
  await laptop.waitForNoRinging();
  await phone.hangUp(eventId);
  await phone.openCalls();
  expect(await phone.historyStatus(eventId)).toBe(texts.outcomeAnswered);
  return eventId;
}

/** Types `text` in the call's reply box on the phone's calls page and sends it; returns the reply's line. */
async function sendReply(eventId: string, text: string): Promise<Locator> {
  const row = phone.historyRow(eventId);
  await row.getByTestId("reply-button").click({ timeout: UI_WAIT_MS });
  await row.getByTestId("reply-input").fill(text, { timeout: UI_WAIT_MS });
  await row.getByTestId("send-reply").click({ timeout: UI_WAIT_MS });
  const line = row.getByTestId("reply-line");
  await line.waitFor({ timeout: UI_WAIT_MS });
  expect(await line.locator(".reply-text").textContent()).toBe(text);
  return line;
}

/** The delivery status a device stored for one reply of a call (the relay's reply-status reached it). */
async function storedDelivery(device: Device, eventId: string, replyId: string): Promise<unknown> {
  const record = (await device.storedCall(eventId)) as {
    status?: { replyDeliveries?: Record<string, { status?: unknown }> };
  };
  return record?.status?.replyDeliveries?.[replyId]?.status;
}

describe("a reply after hang-up", () => {
  it("resumes the agent session in its directory with the reply, and the call's history says Delivered", async () => {
    const sessionId = randomUUID();
    const eventId = await callAnsweredOnPhone(
      "I renamed the billing module and updated its imports; the build is green. Should I also rename the tests?",
      { sessionId, promptId: randomUUID() },
    );
    expect(await agent.runs()).toEqual([]);

    const reply = "Yes, rename the tests too and keep the old names as aliases for one release.";
    const line = await sendReply(eventId, reply);
    const status = line.locator('[data-testid="reply-status"][data-kind="delivered"]');
    await status.waitFor({ timeout: UI_WAIT_MS });
    expect(await status.textContent()).toBe(texts.replyDelivered);

    // The daemon ran `claude --resume <session> -p <reply>` exactly once, in the directory the hook reported.
    const runs = await agent.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.argv).toEqual(["--resume", sessionId, "-p", reply]);
    expect(await realpath(runs[0]?.cwd ?? "")).toBe(await realpath(system.projectDir));
    expect(runs[0]?.stdin).toBe("");
    await phone.screenshot("reply-delivered", { fullPage: true });

    // The laptop learns the reply's status but never its text: only the phone that wrote it keeps that.
    const replyId = await line.getAttribute("data-reply-id");
    if (!replyId) throw new Error("the reply line names no reply");
    await expect
      .poll(() => storedDelivery(laptop, eventId, replyId), { timeout: UI_WAIT_MS })
      .toBe("delivered");
    expect(JSON.stringify(await laptop.storedCall(eventId))).not.toContain(reply);
    await laptop.openCalls();
    expect(await laptop.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);
    expect(await laptop.historyRow(eventId).getByTestId("reply-line").count()).toBe(0);
    expect(await laptop.historyRow(eventId).textContent()).not.toContain(reply);

    // The relay stored the reply (its id is there) sealed: its data files hold none of the text.
    const files = await relayDataFiles();
    expect(filesHolding(files, replyId)).not.toEqual([]);
    expect(filesHolding(files, reply)).toEqual([]);
    expect([...phone.pageErrors, ...laptop.pageErrors]).toEqual([]);
  });

  it("shows why the resumed agent failed; the reason reaches the phone sealed", async () => {
    const sessionId = randomUUID();
    const eventId = await callAnsweredOnPhone("Drafted the migration plan for the orders table.", {
      sessionId,
      promptId: randomUUID(),
    });
    const stderr = "Error: session transcript is locked by another process";
    await agent.behave({ exitCode: 3, stderr });
    const runsBefore = (await agent.runs()).length;

    const reply = "Go ahead with step one of the plan.";
    const line = await sendReply(eventId, reply);
    const status = line.locator('[data-testid="reply-status"][data-kind="failed"]');
    await status.waitFor({ timeout: UI_WAIT_MS });
    // The daemon's reason: the command's name, its exit code and the end of its stderr.
    expect(await status.textContent()).toBe(texts.replyFailed(`claude exited with code 3: ${stderr}`));

    const runs = (await agent.runs()).slice(runsBefore);
    expect(runs.map((run) => run.argv)).toEqual([["--resume", sessionId, "-p", reply]]);
    await phone.screenshot("reply-failed", { fullPage: true });

    // Neither the reply nor the agent's error reached the relay's files in the clear.
    const files = await relayDataFiles();
    expect(filesHolding(files, reply)).toEqual([]);
    expect(filesHolding(files, stderr)).toEqual([]);
    await agent.behave({});
    expect([...phone.pageErrors, ...laptop.pageErrors]).toEqual([]);
  });
});
