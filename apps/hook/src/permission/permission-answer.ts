import { isShape } from "../agent/agent-adapter.js";
import type { PostOutcome } from "../daemon-call/post-report.js";
import { PERMISSION_REASON_MAX_CHARS } from "../daemon-call/protocol-constants.js";

/** Mirrors protocol's `PermissionAnswer`: `decidedOn` is a device's name. */
const DEVICE_NAME_MAX_CHARS = 200;

/** Why the daemon gave no decision (protocol's `PermissionNoDecision`). */
const NO_DECISION_OUTCOMES = ["present", "expired", "not-linked", "failed"] as const;
export type NoDecisionOutcome = (typeof NO_DECISION_OUTCOMES)[number];

/** A person's decision, as the daemon passed it on. */
export interface PermissionDecision {
  verdict: "allow" | "deny";
  reason: string | null;
  decidedOn: string;
}

/** How a permission request ended for the hook. Only `decided` makes it print anything. */
export type PermissionResult =
  | { kind: "decided"; decision: PermissionDecision }
  | { kind: "no-decision"; outcome: NoDecisionOutcome }
  /** The daemon answered 200 with something that is not a `PermissionAnswer`. */
  | { kind: "bad-answer"; problem: string }
  /** An answer without the daemon's proof: an older daemon, or another program on its port; never a decision. */
  | { kind: "unproven"; outcome: Extract<PostOutcome, { kind: "answered" }> }
  /** No 200 from the daemon: it is down, refused the request, or did not answer in time. */
  | { kind: "not-answered"; outcome: PostOutcome };

function isNoDecision(value: unknown): value is NoDecisionOutcome {
  return (NO_DECISION_OUTCOMES as readonly unknown[]).includes(value);
}

/**
 * Reads the daemon's answer by hand (the hook cannot load zod) against protocol's `PermissionAnswer`. A decision
 * must be whole: a verdict of `allow` or `deny`, a reason (text within the limit, or null) and the deciding
 * device's name; anything less is a bad answer, never a decision.
 */
export function parsePermissionAnswer(
  body: string,
): Exclude<PermissionResult, { kind: "not-answered" | "unproven" }> {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return { kind: "bad-answer", problem: "it is not JSON" };
  }
  if (!isShape(answer)) return { kind: "bad-answer", problem: "it is not a JSON object" };
  if (isNoDecision(answer.outcome)) return { kind: "no-decision", outcome: answer.outcome };
  if (answer.outcome !== "decided")
    return { kind: "bad-answer", problem: `its outcome is ${JSON.stringify(answer.outcome) ?? "missing"}` };
  const { verdict, reason, decidedOn } = answer;
  if (verdict !== "allow" && verdict !== "deny")
    return { kind: "bad-answer", problem: "its decision has no verdict of allow or deny" };
  if (!(reason === null || (typeof reason === "string" && reason.length <= PERMISSION_REASON_MAX_CHARS)))
    return { kind: "bad-answer", problem: "its decision's reason is neither text within the limit nor null" };
  if (typeof decidedOn !== "string" || decidedOn.length > DEVICE_NAME_MAX_CHARS)
    return { kind: "bad-answer", problem: "its decision does not name the device that decided" };
  return { kind: "decided", decision: { verdict, reason, decidedOn } };
}

/** What the hook makes of the daemon's answer to `POST /permission-requests`; only a proven answer can decide. */
export function permissionResultOf(outcome: PostOutcome): PermissionResult {
  // Before anything in it is read: what the answer says counts only once it proves it is the daemon's.
  if (outcome.kind === "answered" && !outcome.isProven) return { kind: "unproven", outcome };
  if (outcome.kind !== "answered" || outcome.status !== 200) return { kind: "not-answered", outcome };
  if (outcome.body === undefined) return { kind: "bad-answer", problem: "it was cut short" };
  return parsePermissionAnswer(outcome.body);
}
