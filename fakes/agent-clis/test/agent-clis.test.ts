import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answers, type RecordedRequest } from "@ringback/fake-model";
import type { LocalAgentSource } from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { type AgentRunContext, type AgentTurn, runClaude, runCodex } from "./support/agent-runs.js";
import { type AgentSetup, startAgentSetup } from "./support/agent-setup.js";
import { dryRunHook, transcriptOf } from "./support/hook-dry-run.js";
import { runInstaller } from "./support/installer.js";
import { addUsersBlockingOnceStopHook, CONTINUE_REASON } from "./support/user-stop-hook.js";

/** Several agent turns of real CLIs in one test, on a machine shared with other work. */
const TEST_TIMEOUT_MS = 900_000;

interface AgentUnderTest {
  kind: LocalAgentSource;
  run(context: AgentRunContext, prompt: string, resumeSessionId?: string): Promise<AgentTurn>;
  /** The model calls of this agent's wire format. */
  modelCalls(setup: AgentSetup): RecordedRequest[];
  /** The commands of every Stop handler in this agent's hook configuration. */
  installedHandlers(setup: AgentSetup): string[];
}

function stopCommands(file: string): string[] {
  if (!existsSync(file)) return [];
  const config = JSON.parse(readFileSync(file, "utf8")) as {
    hooks?: { Stop?: { hooks?: { command?: string }[] }[] };
  };
  return (config.hooks?.Stop ?? []).flatMap((group) => (group.hooks ?? []).map((hook) => hook.command ?? ""));
}

const AGENTS: AgentUnderTest[] = [
  {
    kind: "claude-code",
    run: runClaude,
    modelCalls: (setup) => setup.model.messagesRequests(),
    installedHandlers: (setup) => stopCommands(join(setup.home.home, ".claude", "settings.json")),
  },
  {
    kind: "codex",
    run: runCodex,
    modelCalls: (setup) => setup.model.responsesRequests(),
    installedHandlers: (setup) => stopCommands(join(setup.home.codexHome, "hooks.json")),
  },
];

describe.each(AGENTS)("$kind, the genuine CLI from npm, with the installed Stop hook", (agent) => {
  it(
    "reports a turn once with the model's final text, kind, session and cwd, and a resumed turn again",
    async () => {
      await using setup = await startAgentSetup();
      await runInstaller("install", setup.context.env, setup.home.home);
      const firstAnswer = `The login bug is fixed (${agent.kind}, first turn).`;
      setup.model.setDefaultAnswer(answers.text(firstAnswer));

      const first = await agent.run(setup.context, "say hi");

      expect(first.finalText).toBe(firstAnswer);
      expect(setup.daemon.reports()).toEqual([
        expect.objectContaining({
          source: agent.kind,
          sessionId: first.sessionId,
          cwd: setup.home.project,
          text: firstAnswer,
          turnId: expect.any(String),
          transcriptPath: expect.any(String),
        }),
      ]);
      expect(existsSync(setup.daemon.reports()[0]?.transcriptPath ?? "")).toBe(true);
      // The turn's start (UserPromptSubmit), then its end (Stop): the fleet shows it working, then finished.
      expect(setup.daemon.requests).toEqual([
        expect.objectContaining({
          path: "/agent-activity",
          body: {
            agent: agent.kind,
            sessionId: first.sessionId,
            cwd: setup.home.project,
            activity: "turn-started",
          },
          status: 202,
          hasOrigin: false,
        }),
        expect.objectContaining({
          path: "/report",
          status: 202,
          answer: '{"accepted":true}',
          hasOrigin: false,
        }),
      ]);
      // What lets the daemon resume this session with the user's reply.
      await eventually(() => setup.daemon.sessions()[first.sessionId], {
        what: "the session",
        checks: 1_500,
      });
      expect(setup.daemon.sessions()[first.sessionId]).toMatchObject({
        cwd: setup.home.project,
        source: agent.kind,
      });

      const replyAnswer = `Shortened the session lifetime to 7 days (${agent.kind}, resumed).`;
      setup.model.setDefaultAnswer(answers.text(replyAnswer));
      const resumed = await agent.run(setup.context, "Yes, shorten it to 7 days.", first.sessionId);

      expect(resumed.sessionId).toBe(first.sessionId);
      const reports = setup.daemon.reports();
      expect(reports).toHaveLength(2);
      expect(reports[1]).toMatchObject({
        source: agent.kind,
        sessionId: first.sessionId,
        cwd: setup.home.project,
        text: replyAnswer,
      });
      expect(reports[1]?.turnId).toEqual(expect.any(String));
      expect(reports[1]?.turnId).not.toBe(reports[0]?.turnId);
      expect(setup.daemon.requests.map((request) => [request.path, request.status])).toEqual([
        ["/agent-activity", 202],
        ["/report", 202],
        ["/agent-activity", 202],
        ["/report", 202],
      ]);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reads the last answer from the agent's own transcript when a Stop payload lacks it (older agents)",
    async () => {
      await using setup = await startAgentSetup();
      setup.model.setDefaultAnswer(answers.text(`First answer (${agent.kind}).`));
      const first = await agent.run(setup.context, "say hi");
      const lastAnswer = `Last answer, after the reply (${agent.kind}).`;
      setup.model.setDefaultAnswer(answers.text(lastAnswer));
      await agent.run(setup.context, "And the rest?", first.sessionId);
      const transcriptPath = transcriptOf(agent.kind, setup.home, first.sessionId);

      const report = await dryRunHook(
        agent.kind,
        {
          session_id: first.sessionId,
          cwd: setup.home.project,
          transcript_path: transcriptPath,
          hook_event_name: "Stop",
          stop_hook_active: false,
        },
        setup.context.env,
        setup.home.project,
      );

      expect(report).toMatchObject({ source: agent.kind, sessionId: first.sessionId, text: lastAnswer });
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reports a turn once when installed again and again (ringback-hook install twice, then ringback install)",
    async () => {
      await using setup = await startAgentSetup();
      await runInstaller("install", setup.context.env, setup.home.home, "ringback-hook");
      await runInstaller("install", setup.context.env, setup.home.home, "ringback-hook");
      await runInstaller("install", setup.context.env, setup.home.home, "ringback");
      expect(
        agent.installedHandlers(setup).filter((command) => command.includes("ringback-hook")),
      ).toHaveLength(1);
      const answer = `All 42 tests pass (${agent.kind}, installed three times).`;
      setup.model.setDefaultAnswer(answers.text(answer));

      const turn = await agent.run(setup.context, "say hi");

      expect(setup.daemon.reports()).toEqual([
        expect.objectContaining({ source: agent.kind, sessionId: turn.sessionId, text: answer }),
      ]);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps the user's own Stop hook, and reports once when that hook sends the agent back to work",
    async () => {
      await using setup = await startAgentSetup();
      addUsersBlockingOnceStopHook(setup.home);
      await runInstaller("install", setup.context.env, setup.home.home);
      expect(agent.installedHandlers(setup)).toHaveLength(2);
      const firstAnswer = `Done (${agent.kind}, before the linter).`;
      const finalAnswer = `Done, and the linter is clean (${agent.kind}).`;
      setup.model.script(answers.text(firstAnswer), answers.text(finalAnswer));

      const turn = await agent.run(setup.context, "say hi");

      // The user's hook ran (it was kept, and trusted) and made the agent continue once.
      const calls = agent.modelCalls(setup);
      expect(calls).toHaveLength(2);
      expect(JSON.stringify(calls[1]?.body)).toContain(CONTINUE_REASON);
      expect(turn.finalText).toBe(finalAnswer);
      // The continuation's Stop has stop_hook_active: true, which is not reported again.
      expect(setup.daemon.reports()).toEqual([
        expect.objectContaining({ source: agent.kind, sessionId: turn.sessionId, text: firstAnswer }),
      ]);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "ends the turn as usual when the daemon is down: exit 0, the answer, no extra model call",
    async () => {
      await using setup = await startAgentSetup();
      await runInstaller("install", setup.context.env, setup.home.home);
      expect(
        agent.installedHandlers(setup).filter((command) => command.includes("ringback-hook")),
      ).toHaveLength(1);
      await setup.daemon.close();
      const answer = `Done, though nobody heard it (${agent.kind}).`;
      setup.model.setDefaultAnswer(answers.text(answer));

      const turn = await agent.run(setup.context, "say hi");

      expect(turn.finalText).toBe(answer);
      // A hook that blocked the stop (exit 2) would make the agent ask the model again.
      expect(agent.modelCalls(setup)).toHaveLength(1);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reports nothing once uninstalled, though the turn ran",
    async () => {
      await using setup = await startAgentSetup();
      await runInstaller("install", setup.context.env, setup.home.home);
      await runInstaller("uninstall", setup.context.env, setup.home.home);
      expect(agent.installedHandlers(setup).filter((command) => command.includes("ringback-hook"))).toEqual(
        [],
      );
      const answer = `Nobody is called for this one (${agent.kind}).`;
      setup.model.setDefaultAnswer(answers.text(answer));

      const turn = await agent.run(setup.context, "say hi");

      expect(turn.finalText).toBe(answer);
      expect(agent.modelCalls(setup).length).toBeGreaterThan(0);
      expect(setup.daemon.requests).toEqual([]);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("codex, the genuine CLI from npm, and the installer's trust record", () => {
  it(
    "runs the installed hook only with the trust record the installer wrote",
    async () => {
      await using setup = await startAgentSetup();
      await runInstaller("install", setup.context.env, setup.home.home);
      const configPath = join(setup.home.codexHome, "config.toml");
      const trusted = readFileSync(configPath, "utf8");
      const untrusted = trusted.replace(/\[hooks\.state\."[^"\n]*"\]\ntrusted_hash = "[^"\n]*"\n?/g, "");
      expect(untrusted).not.toBe(trusted);
      writeFileSync(configPath, untrusted);
      const answer = "Codex skips a hook nobody trusted.";
      setup.model.setDefaultAnswer(answers.text(answer));

      const turn = await runCodex(setup.context, "say hi");

      expect(turn.finalText).toBe(answer);
      expect(setup.model.responsesRequests().length).toBeGreaterThan(0);
      expect(setup.daemon.requests).toEqual([]);

      writeFileSync(configPath, trusted);
      const resumed = await runCodex(setup.context, "And now?", turn.sessionId);

      expect(setup.daemon.reports()).toEqual([
        expect.objectContaining({ source: "codex", sessionId: turn.sessionId, text: answer }),
      ]);
      expect(resumed.sessionId).toBe(turn.sessionId);
      expect(setup.trap.attempts).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
