import type { AgentKind } from "../agent-kind.js";
import type { DaemonLocation } from "../daemon-call/daemon-location.js";
import {
  describeDaemonFailure,
  describeUnprovenAnswer,
  LOOK_CLOSER,
} from "../daemon-call/describe-outcome.js";
import type { NoDecisionOutcome, PermissionResult } from "./permission-answer.js";

const AGENT_NAMES: Record<AgentKind, string> = { "claude-code": "Claude Code", codex: "Codex" };

/**
 * The debug line for how a permission request ended: what happened, what the agent does now, and what to do.
 * Every ending but a decision leaves the agent on its normal path (its own dialog, or its own refusal).
 */
export function describePermissionResult(
  result: PermissionResult,
  kind: AgentKind,
  daemon: DaemonLocation,
  waitMs: number,
): string {
  const agent = AGENT_NAMES[kind];
  const normalPath = `${agent} asks you as usual`;
  switch (result.kind) {
    case "decided": {
      const { verdict, reason, decidedOn } = result.decision;
      if (verdict === "allow") return `allowed: ${decidedOn} allowed it once; ${agent} goes on`;
      return `denied: ${decidedOn} denied it${reason ? ` (${JSON.stringify(reason)})` : ""}; ${agent} was told so and does not run it`;
    }
    case "no-decision":
      return describeNoDecision(result.outcome, agent);
    case "bad-answer":
      return `no decision: the daemon's answer is not a permission answer (${result.problem}), so nothing was allowed and ${normalPath}; ${LOOK_CLOSER}`;
    case "unproven":
      return `${describeUnprovenAnswer(result.outcome, daemon, "no decision")} (nothing was allowed: ${normalPath})`;
    case "not-answered":
      return `${describeDaemonFailure(result.outcome, daemon, "not asked", `the hook's ${waitMs / 1000} s wait`)} (${normalPath})`;
  }
}

/** Why the daemon gave no decision, for each reason protocol names. */
function describeNoDecision(outcome: NoDecisionOutcome, agent: string): string {
  const normalPath = `${agent} asks you as usual`;
  const lines: Record<NoDecisionOutcome, string> = {
    present: `not asked: the daemon says you are at this computer, so ${normalPath}; to be called instead, run \`ringback away on\` (or switch on "I'm away" in the app)`,
    expired: `no decision: nobody answered the call in time, so ${normalPath}`,
    "not-linked": `not asked: the daemon has no relay account to reach your phone, so ${normalPath}; link it with \`ringback login --server <your relay>\` and \`ringback pair\``,
    failed: `not asked: the daemon could not raise the call, so ${normalPath}; ${LOOK_CLOSER}`,
  };
  return lines[outcome];
}
