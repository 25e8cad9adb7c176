import { ALWAYS_RING, CallCenter, createMemoryStore } from "@ringback/client";
import { aad, generateKey, sealJson } from "@ringback/e2e-crypto";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeCallRelay, startFakeCallRelay } from "../../../../packages/client/test/fake-call-relay.js";
import {
  type FirstDecisionComputer,
  firstDecisionComputer,
} from "../../../../packages/client/test/first-decision-computer.js";
import {
  ASK_COMMAND,
  ASK_DIGEST,
  askFor,
  needsYouEvent,
  needsYouFixture,
  payloadFor,
  recordFor,
} from "../../../../packages/client/test/fixtures.js";
import { startListeningTerminal } from "../../test/helpers/listening-terminal.js";
import { joinedNow } from "./joined-now.js";
import { askInCallText, askRingingText } from "./terminal-ask.js";

const key = generateKey();
let relay: FakeCallRelay;
let center: CallCenter | null = null;
/** The computer: the first decision for an ask is taken, any other refused "already decided". */
let computer: FirstDecisionComputer;

beforeEach(async () => {
  computer = firstDecisionComputer(key);
  relay = await startFakeCallRelay(computer.settle);
});

afterEach(async () => {
  center?.stop();
  await relay.close();
});

/** A terminal companion on the fake relay: what it wrote, and its session to type into. */
async function terminal(joined?: Parameters<typeof startListeningTerminal>[2]) {
  const started = await startListeningTerminal(relay.origin, key, joined);
  center = started.center;
  return started;
}

async function raiseAsk(eventId: string, occurredAt = new Date()): Promise<void> {
  relay.publish(await needsYouEvent(key, eventId, occurredAt, askFor(occurredAt), "computer"));
}

/** A finished Codex turn's call, raised at `occurredAt`. */
async function raiseReport(eventId: string, occurredAt = new Date()): Promise<void> {
  relay.publish({
    eventId,
    source: "codex",
    occurredAt: occurredAt.toISOString(),
    receivedAt: occurredAt.toISOString(),
    taskId: null,
    fromDeviceId: "computer",
    sealed: await sealJson(
      key,
      aad.report(eventId),
      payloadFor({
        eventId,
        source: "codex",
        occurredAt: occurredAt.toISOString(),
        brief: { title: "Importer fixed" },
      }),
    ),
  });
}

describe("a needs-you call in the terminal", () => {
  it("rings with who asks, the exact command and the agent's last words, and the keys to decide", () => {
    const record = recordFor(needsYouFixture("needs_1"));
    const ringing = askRingingText(record, "Claude Code");
    expect(ringing.startsWith("\u0007")).toBe(true);
    expect(ringing).toContain("Needs you: Claude Code in project");
    expect(ringing).toContain(`Command:\n  ${ASK_COMMAND}`);
    expect(ringing).toContain("The agent's last words: The build folder is stale; I will rebuild it.");
    expect(ringing).toContain("allow = allow once   deny [reason] = deny");
    const inCall = askInCallText(record, "Claude Code");
    expect(inCall).toContain("asks to run a command");
    expect(inCall).toContain(ASK_COMMAND);
  });

  it("allow answers the ringing call and sends the decision; the terminal says when the agent got it", async () => {
    const { session, output } = await terminal();
    await raiseAsk("needs_allow");
    await eventually(() => output().includes("Needs you: Claude Code in project"));
    await session.command("allow");
    expect(relay.statusWrites).toContain("terminal needs_allow answered");
    await eventually(() => output().includes("Allowed on terminal: the agent got it.\n"));
    expect(computer.opened).toEqual([
      expect.objectContaining({
        eventId: "needs_allow",
        toolInputDigest: ASK_DIGEST,
        verdict: "allow",
        reason: null,
      }),
    ]);
    // Decided already: a second decision is not sent.
    await session.command("deny too late");
    expect(output()).toContain("You already decided.\n");
    expect(computer.opened).toHaveLength(1);
  });

  it("deny takes the rest of the line as the reason for the agent, in the call", async () => {
    const { session, output } = await terminal();
    await raiseAsk("needs_deny");
    await eventually(() => output().includes("Needs you:"));
    await session.command("a");
    await eventually(() => output().includes("In call with Claude Code in project"));
    await session.command("deny   use the staging database  ");
    await eventually(() => output().includes("Denied on terminal: the agent got it.\n"));
    expect(computer.opened.map((decision) => [decision.verdict, decision.reason])).toEqual([
      ["deny", "use the staging database"],
    ]);
  });

  it("says who decided when another device answered first, then when the agent got that decision", async () => {
    const { output } = await terminal();
    const tablet = new CallCenter({
      store: createMemoryStore(),
      pairing: () => ({
        identity: {
          accountId: "a",
          deviceId: "tablet",
          deviceToken: "token-tablet",
          serverUrl: relay.origin,
        },
        key,
      }),
      schedule: () => ALWAYS_RING,
      onDeviceRemoved: () => undefined,
    });
    try {
      await tablet.load();
      tablet.connect();
      await raiseAsk("needs_elsewhere");
      await eventually(() => output().includes("Needs you:"));
      await eventually(() => tablet.view.calls.records.needs_elsewhere?.status.state === "ringing");
      tablet.ringShown("needs_elsewhere");
      tablet.answer("needs_elsewhere");
      await tablet.decide("needs_elsewhere", "allow");
      await eventually(() => output().includes("Answered on tablet.\n"));
      await eventually(() => output().includes("Decided on tablet.\n"));
      expect(computer.opened.map((decision) => decision.eventId)).toEqual(["needs_elsewhere"]);
    } finally {
      tablet.stop();
    }
  });

  it("sends no reply on a needs-you call: it takes allow or deny", async () => {
    const { session, output } = await terminal();
    await raiseAsk("needs_reply");
    await eventually(() => output().includes("Needs you:"));
    await session.command("a");
    await session.command("reply go ahead");
    expect(output()).toContain(
      "The reply could not be sent: This call asks for a decision (allow once or deny), not a reply.\n",
    );
    expect(relay.replies).toEqual([]);
  });

  it("says when no call needs a decision", async () => {
    const { session, written } = await terminal();
    await session.command("allow");
    await session.command("deny no");
    expect(written.slice(-2)).toEqual([
      "No call needs you: allow and deny answer a call that asks permission.\n",
      "No call needs you: allow and deny answer a call that asks permission.\n",
    ]);
    expect(relay.replies).toEqual([]);
  });

  it("rings a call that needs you before the report ringing already, lists what waits, and answers the report after", async () => {
    const { session, output } = await terminal();
    await raiseReport("report_first");
    await eventually(() => output().includes("Importer fixed"));
    await raiseAsk("needs_second");
    await eventually(() => output().includes("Needs you: Claude Code in project"));
    expect(output()).toContain("waits: a call that needs you comes first.\n");
    expect(output()).toMatch(
      /Waiting \(1\): .*\(Importer fixed, set aside: a answers it when nothing rings\)\.\n/,
    );

    await session.command("allow");
    await eventually(() => output().includes("Allowed on terminal: the agent got it.\n"));
    expect(computer.opened.map((decision) => decision.eventId)).toEqual(["needs_second"]);
    await session.command("h");
    await session.command("a");
    await eventually(() => relay.statusWrites.includes("terminal report_first answered"));
    await eventually(() => output().includes("Nothing else waits.\n"));
  });

  it("a terminal that has just joined does not ring the calls raised before, decided or not", async () => {
    await raiseReport("report_before", new Date(Date.now() - 60_000));
    // A second before joining: raised in the same millisecond as the join, a call is not "before" it.
    await raiseAsk("needs_before", new Date(Date.now() - 1_000));
    const pairing = joinedNow({
      identity: {
        accountId: "a",
        deviceId: "terminal",
        deviceToken: "token-terminal",
        serverUrl: relay.origin,
      },
      key,
    });
    const { center: joined, output } = await terminal(pairing);
    await eventually(() => joined.view.calls.records.needs_before?.status.state === "missed");
    expect(joined.view.calls.records.report_before?.status.state).toBe("missed");
    expect(output()).not.toContain("Needs you:");
    expect(output()).not.toContain("Importer fixed");
  });
});
