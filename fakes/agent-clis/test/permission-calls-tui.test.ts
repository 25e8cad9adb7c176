import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { type AgentTui, CLAUDE_TUI, CODEX_TUI, sendPrompt } from "./support/agent-tuis.js";
import { hookAnswers, onlyToolResult } from "./support/permission-outcomes.js";
import { type RelayedAgentSetup, startRelayedAgentSetup } from "./support/relayed-setup.js";
import { ASK, markerExists, scriptTheAsk } from "./support/scripted-ask.js";
import type { TmuxScreen } from "./support/tmux-screen.js";

/** A full-screen agent's start, its ask and a device, on a busy machine. */
const TEST_TIMEOUT_MS = 900_000;
/** Checks (20 ms apart) for the daemon's answer to the hook, which a busy machine may start late. */
const ANSWER_CHECKS = 15_000;

/**
 * The agent's final answer ("Tool result: …", once the command's result reached the model) is on the screen, and
 * the turn's end rang as an ordinary report (the agent's Stop hook): the link works, and whatever "needs you" call
 * there was came before it.
 */
async function waitForTheTurnsEnd(screen: TmuxScreen, setup: RelayedAgentSetup): Promise<void> {
  await screen.waitFor(ASK.finalAnswerStart, "the agent's final answer");
  const finalText = `${ASK.finalAnswerStart} ${onlyToolResult(setup).text}`.trim();
  await setup.device.waitForReport((text) => text.trim() === finalText);
}

/** Nothing left 127.0.0.1 but what the agent reaches for at every start with no setting to stop it (refused). */
function expectNothingElseWentOut(tui: AgentTui, setup: RelayedAgentSetup): void {
  expect(setup.trap.attempts.filter((host) => !tui.unavoidableOutsideHosts.includes(host))).toEqual([]);
}

describe.each([CLAUDE_TUI, CODEX_TUI])(
  "$kind, the genuine full-screen CLI under tmux, asking permission",
  (tui) => {
    it(
      "away: rings the device while the hook waits; the device allows; the screen shows the command ran",
      async () => {
        await using setup = await startRelayedAgentSetup();
        await setup.ringback("away", "on");
        scriptTheAsk(setup);
        await using screen = await tui.start(setup.home, setup.context);

        await sendPrompt(screen, ASK.prompt);
        const opened = await screen.showingOnFailure(setup.device.waitForAsk());

        expect(opened.ask).toMatchObject({
          agent: tui.kind,
          toolName: "Bash",
          toolInput: { command: ASK.command },
        });
        await screen.waitFor(tui.whileTheHookWaits, "the agent waiting on the hook");
        expect(markerExists(setup)).toBe(false);
        await setup.device.answer(opened.event.eventId);
        const replyId = await setup.device.decide(opened, "allow");

        await screen.waitFor(tui.ranOnTheHooksAllow, "the command run on the hook's allow");
        expect(markerExists(setup)).toBe(true);
        expect((await setup.device.waitForReplyStatus(replyId)).status).toBe("delivered");
        expect(hookAnswers(setup)).toEqual([
          expect.objectContaining({ outcome: "decided", verdict: "allow" }),
        ]);
        await waitForTheTurnsEnd(screen, setup);
        expect(setup.device.asks()).toHaveLength(1);
        expectNothingElseWentOut(tui, setup);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "present (the default): rings nobody; the agent's own dialog is on the screen, and answering it there runs the command",
      async () => {
        await using setup = await startRelayedAgentSetup();
        scriptTheAsk(setup);
        await using screen = await tui.start(setup.home, setup.context);

        await sendPrompt(screen, ASK.prompt);
        await screen.waitFor(tui.ownDialog, "the agent's own dialog");
        // Claude Code shows its dialog at once, while the hook runs: the person answers once the hook has had its say.
        const answers = await screen.showingOnFailure(
          eventually(() => hookAnswers(setup).length > 0 && hookAnswers(setup), {
            what: "the daemon's answer to the hook",
            checks: ANSWER_CHECKS,
          }),
        );

        expect(answers).toEqual([{ outcome: "present" }]);
        expect(markerExists(setup)).toBe(false);
        await screen.pressUntilGone(tui.yesKey, tui.ownDialog, "the agent's own dialog");
        await waitForTheTurnsEnd(screen, setup);
        expect(markerExists(setup)).toBe(true);
        expect(setup.device.asks()).toEqual([]);
        expectNothingElseWentOut(tui, setup);
      },
      TEST_TIMEOUT_MS,
    );
  },
);
