/** One of the figures: the relay's result, its baseline from the same run, how they compare, and the goal. */
export interface Goal {
  readonly figure: string;
  readonly relay: string;
  readonly baseline: string;
  /** The relay against its baseline, in the goal's terms: a ratio (`ratioOf`) or a difference. */
  readonly comparison: string;
  /** The goal; null for a figure shown beside the goals without one. */
  readonly goal: string | null;
  readonly isMet: boolean;
}

export const GOAL_HEADER = ["figure", "relay", "baseline (same run)", "relay vs baseline", "goal", "met"];

export const ratioOf = (relay: number, baseline: number): string => `${(relay / baseline).toFixed(2)}x`;

export function goalRows(goals: readonly Goal[]): string[][] {
  return goals.map((goal) => [
    goal.figure,
    goal.relay,
    goal.baseline,
    goal.comparison,
    goal.goal ?? "(no goal)",
    goal.goal === null ? "" : goal.isMet ? "met" : "missed",
  ]);
}
