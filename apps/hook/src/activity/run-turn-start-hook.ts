import type { Shape } from "../agent/agent-adapter.js";
import type { AgentKind } from "../agent-kind.js";
import { locateDaemon } from "../daemon-call/daemon-location.js";
import {
  describeDaemonFailure,
  describeMissingKey,
  describeUnprovenAnswer,
} from "../daemon-call/describe-outcome.js";
import { postToDaemon } from "../daemon-call/post-report.js";
import type { DebugLog } from "../debug-log.js";
import { turnStartFrom } from "./turn-start.js";

export interface TurnStartHookContext {
  kind: AgentKind;
  env: NodeJS.ProcessEnv;
  log: DebugLog;
  stdout: NodeJS.WritableStream;
  dryRun: boolean;
  /** Bounds the whole post, as for a Stop. */
  budget: AbortSignal;
  budgetMs: number;
}

/**
 * The `UserPromptSubmit` path: tells the daemon the agent started a turn (`POST /agent-activity`), so the fleet shows
 * it working. Prints nothing for the agent (both agents would add printed text to the prompt) and never holds the
 * turn longer than the daemon's quick answer.
 */
export async function runTurnStartHook(fields: Shape, context: TurnStartHookContext): Promise<void> {
  const { log } = context;
  const turnStart = turnStartFrom(context.kind, fields, context.env, process.cwd());
  if (!turnStart.ok) return log(`not posted: ${turnStart.reason}`);
  if (context.dryRun) {
    context.stdout.write(`${JSON.stringify(JSON.parse(turnStart.body), null, 2)}\n`);
    return;
  }
  const daemon = locateDaemon(context.env);
  if (!daemon.key) return log(describeMissingKey(daemon, "not posted"));
  const outcome = await postToDaemon(
    { port: daemon.port, key: daemon.key },
    { path: "/agent-activity", body: turnStart.body, readsAnswer: false },
    context.budget,
  );
  if (outcome.kind === "answered" && !outcome.isProven)
    return log(describeUnprovenAnswer(outcome, daemon, "not proven, so maybe not posted"));
  if (outcome.kind === "answered" && outcome.status >= 200 && outcome.status < 300)
    return log(`posted: the daemon on 127.0.0.1:${daemon.port} shows this agent working`);
  log(describeDaemonFailure(outcome, daemon, "not posted", `the hook's ${context.budgetMs / 1000} s budget`));
}
