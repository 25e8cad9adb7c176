/** One of the figures: the relay's result, its baseline from the same run, their ratio, and the goal. */
export interface Goal {
  readonly figure: string;
  readonly relay: string;
  readonly baseline: string;
  /** Relay over baseline. */
  readonly ratio: number;
  readonly goal: string;
  readonly isMet: boolean;
}

export function goalRows(goals: readonly Goal[]): string[][] {
  return goals.map((goal) => [
    goal.figure,
    goal.relay,
    goal.baseline,
    `${goal.ratio.toFixed(2)}x`,
    goal.goal,
    goal.isMet ? "yes" : "NO",
  ]);
}
