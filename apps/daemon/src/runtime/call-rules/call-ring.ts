import type { CallRing, CallRules, Report } from "@ringback/protocol";
import { projectOf } from "./call-project.js";

/**
 * How the relay is to ring a finished call: `quiet` (kept and listed, not pushed) for a project whose rule is
 * `round-up` or `silent`; `ring` for every other project and for a call without one.
 */
export function ringOf(report: Pick<Report, "cwd" | "tracker">, rules: CallRules): CallRing {
  const project = projectOf(report);
  const rule = project === null ? undefined : rules.projects[project];
  return rule === "round-up" || rule === "silent" ? "quiet" : "ring";
}
