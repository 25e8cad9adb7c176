import { basename } from "node:path";
import { type FleetAgent, PairingResult } from "@ringback/protocol";
import { eventually, startChild } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import type { AgentTurn } from "./support/agent-runs.js";
import { daemonMainPath } from "./support/installed-bins.js";
import {
  expectTheAllowRan,
  expectTheDenyReachedTheModel,
  hookAnswers,
  onlyToolResult,
  permissionAsks,
} from "./support/permission-outcomes.js";
import { type AgentUnderTest, CLAUDE, CODEX, startTurn, whileRunning } from "./support/permission-turn.js";
import { type RelayedAgentSetup, startRelayedAgentSetup } from "./support/relayed-setup.js";
import { ASK, markerExists } from "./support/scripted-ask.js";

/** An agent turn held by a permission ask, with the relay, the daemon and a device, on a busy machine. */
const TEST_TIMEOUT_MS = 900_000;
/** Checks (20 ms apart) for what the terminal companion prints while an agent runs. */
const TERMINAL_CHECKS = 15_000;

describe.each([CLAUDE, CODEX])(
  "$kind, the genuine CLI, asking permission while the computer is away",
  (agent) => {
    it(
      "rings the device with the exact command; the device allows it; the command runs and the turn ends",
      async () => {
        await using setup = await startRelayedAgentSetup();
        await setup.ringback("away", "on");
        const running = startTurn(agent, setup);

        const opened = await whileRunning(running, setup.device.waitForAsk());

        expect(opened.event.source).toBe(agent.kind);
        expect(opened.ask).toMatchObject({
          agent: agent.kind,
          toolName: "Bash",
          toolInput: { command: ASK.command },
          toolInputDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          lastWords: ASK.lastWords,
        });
        expect(opened.payload.report).toMatchObject({ source: agent.kind, cwd: setup.home.project });
        expect(opened.payload.report.text).toContain(ASK.command);
        expect(opened.payload.brief.cards.map((card) => card.body)).toContain(ASK.command);
        expect(markerExists(setup)).toBe(false);
        await setup.device.answer(opened.event.eventId);
        const replyId = await setup.device.decide(opened, "allow");

        const turn = await running;

        expectTheAllowRan(setup, turn.finalText);
        expect((await setup.device.waitForReplyStatus(replyId)).status).toBe("delivered");
        expect(permissionAsks(setup).map(({ request }) => request)).toEqual([
          expect.objectContaining({ agent: agent.kind, toolName: "Bash", cwd: setup.home.project }),
        ]);
        // The turn's end rings too, as an ordinary report; no second ask.
        await setup.device.waitForReport((text) => text === turn.finalText);
        expect(setup.device.asks()).toHaveLength(1);
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "passes the device's deny and its reason to the model; the command does not run",
      async () => {
        await using setup = await startRelayedAgentSetup();
        await setup.ringback("away", "on");
        const running = startTurn(agent, setup);

        const opened = await whileRunning(running, setup.device.waitForAsk());
        await setup.device.answer(opened.event.eventId);
        const replyId = await setup.device.decide(opened, "deny", ASK.denyReason);
        const turn = await running;

        expectTheDenyReachedTheModel(agent.kind, setup, turn.finalText);
        expect((await setup.device.waitForReplyStatus(replyId)).status).toBe("delivered");
        if (agent.kind === "claude-code") {
          const output = JSON.parse(turn.result.stdout) as { permission_denials?: unknown };
          expect(output.permission_denials).toEqual([expect.objectContaining({ tool_name: "Bash" })]);
        }
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  },
);

describe.each([CLAUDE, CODEX])(
  "$kind, the genuine CLI, when nobody decides or the computer is not away",
  (agent) => {
    it(
      "takes the agent's own path when the device does not answer in the daemon's wait; a late allow changes nothing",
      async () => {
        await using setup = await startRelayedAgentSetup({ permissionWaitMs: 3_000 });
        await setup.ringback("away", "on");
        const running = startTurn(agent, setup);

        const opened = await whileRunning(running, setup.device.waitForAsk());
        const turn = await running;

        expect(opened.ask.toolInput).toMatchObject({ command: ASK.command });
        expect(hookAnswers(setup)).toEqual([{ outcome: "expired" }]);
        expect(markerExists(setup)).toBe(false);
        expectOwnRefusal(agent, setup, turn);

        // The agent stopped waiting: the computer ended the call on every device, so picking it up is refused.
        await expect(setup.device.answer(opened.event.eventId)).rejects.toThrow(/already ended \(ended\)/);
        // An allow sent all the same: the computer refuses the decision, nothing runs.
        const replyId = await setup.device.decide(opened, "allow");
        const late = await setup.device.waitForReplyStatus(replyId);
        expect(late.status).toBe("failed");
        expect(await setup.device.failureReason(late)).toMatch(/stopped waiting/);
        expect(markerExists(setup)).toBe(false);
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "rings nobody when the computer is present (the default): the hook answers at once, the agent's own path",
      async () => {
        await using setup = await startRelayedAgentSetup();

        const turn = await startTurn(agent, setup);

        expect(hookAnswers(setup)).toEqual([{ outcome: "present" }]);
        expect(markerExists(setup)).toBe(false);
        expectOwnRefusal(agent, setup, turn);
        // The turn's end still rings (the link works), and no "needs you" call came before it.
        await setup.device.waitForReport((text) => text === turn.finalText);
        expect(setup.device.asks()).toEqual([]);
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  },
);

/** What Codex's automatic review (`--approve-for-me`, after a silent hook) sends the model first. */
const CODEX_REVIEW_WORDS = "You are judging one planned coding-agent action";

/**
 * The agent's normal path once the hook gave no decision. Claude `-p` refuses by itself (an `is_error` tool result,
 * "… needs approval …") and the turn goes on. Codex `exec --approve-for-me` asks its automatic reviewer (the same
 * model): the fake model's echo is no assessment, so the review fails closed and the command is rejected.
 */
function expectOwnRefusal(agent: AgentUnderTest, setup: RelayedAgentSetup, turn: AgentTurn): void {
  const result = onlyToolResult(setup);
  expect(result.text).not.toContain(ASK.denyReason);
  if (agent.kind === "claude-code") {
    expect(result.isError).toBe(true);
    expect(result.text).toContain("needs approval");
  } else {
    expect(result.text).toContain("Automatic approval review failed");
    expect(
      setup.model
        .responsesRequests()
        .some((request) => JSON.stringify(request.body).includes(CODEX_REVIEW_WORDS)),
    ).toBe(true);
  }
  expect(turn.finalText).toContain(result.text);
}

/** The phone's fleet entry of the agent in `setup`'s project, once it matches `entry`. */
function fleetEntry(setup: RelayedAgentSetup, entry: Partial<FleetAgent>): Promise<FleetAgent> {
  return eventually(
    async () =>
      (await setup.device.fleetStates())
        .flatMap((state) => state.agents)
        .find(
          (agent) =>
            agent.project === basename(setup.home.project) &&
            Object.entries(entry).every(([key, value]) => agent[key as keyof FleetAgent] === value),
        ),
    { what: `the phone's fleet entry ${JSON.stringify(entry)}`, checks: TERMINAL_CHECKS },
  );
}

describe("claude-code, the genuine CLI, and the terminal companion (ringback listen)", () => {
  it(
    "rings in the terminal with the exact command; typing `allow` lets the command run, the phone stops ringing; the fleet shows the turn working, then needing you, then finished",
    async () => {
      await using setup = await startRelayedAgentSetup();
      await setup.ringback("away", "on");
      const pairing = PairingResult.parse(JSON.parse(await setup.ringback("pair", "--json")));
      await using terminal = startChild({
        args: [daemonMainPath(), "listen", "--pair", pairing.link, "--name", "terminal", "--no-notify"],
        cwd: setup.home.home,
        env: setup.context.env,
        hasOpenStdin: true,
        isGroupLeader: true,
        name: "ringback listen",
      });
      await terminal.waitFor(
        () => terminal.stdout.includes("Listening for calls."),
        "the terminal to listen",
      );
      const running = startTurn(CLAUDE, setup);

      // The turn's start (UserPromptSubmit) reaches the phone's fleet, sealed, before the turn ends.
      const working = await whileRunning(running, fleetEntry(setup, { state: "working" }));
      expect(working).toMatchObject({ source: "claude-code", eventId: null, headline: null });
      expect(working.agentId).toMatch(/^claude-code:/);
      await whileRunning(
        running,
        terminal.waitFor(
          () => terminal.stdout.includes("Needs you:") && terminal.stdout.includes(ASK.command),
          "the ask in the terminal",
          TERMINAL_CHECKS,
        ),
      );
      const opened = await setup.device.waitForAsk();
      const needsYou = await whileRunning(running, fleetEntry(setup, { state: "needs-you" }));
      expect(needsYou).toMatchObject({ agentId: working.agentId, eventId: opened.event.eventId });
      expect(needsYou.headline).toContain(ASK.command);
      terminal.type("allow");
      const turn = await running;

      expectTheAllowRan(setup, turn.finalText);
      expect(await fleetEntry(setup, { state: "finished" })).toMatchObject({ agentId: working.agentId });
      // The terminal answered the call first: the phone sees it answered by another device.
      const answered = await setup.device.waitForCallStatus(opened.event.eventId, "answered");
      expect(answered.deviceId).not.toBeNull();
      await terminal.waitFor(
        () => terminal.stdout.includes("the agent got it"),
        "the decision's outcome",
        TERMINAL_CHECKS,
      );
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
