import type { EscalationSchedule, EscalationTiming } from "@ringback/protocol";

/** The two kinds of call, each with its own schedule. */
export type CallKind = "needs-you" | "finished";

export function timingOf(schedule: EscalationSchedule, kind: CallKind): EscalationTiming {
  return kind === "needs-you" ? schedule.needsYou : schedule.finished;
}

/**
 * When each of `rungCount` rungs falls due, in milliseconds after the call started ringing: the first after
 * `afterSeconds`, each next one `stepSeconds` later. Null when this kind never escalates.
 */
export function rungTimesMs(timing: EscalationTiming, rungCount: number): number[] | null {
  if (timing.afterSeconds === null) return null;
  const afterMs = timing.afterSeconds * 1000;
  return Array.from({ length: rungCount }, (_, index) => afterMs + index * timing.stepSeconds * 1000);
}
