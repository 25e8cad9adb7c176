import type { LadderRungName, RungAnswer } from "@ringback/protocol";

/** What a rung left behind once it was sent: a way to learn it was acknowledged, and a way to take it back. */
export interface RungDelivery {
  readonly answer: RungAnswer;
  /** Asked while the ladder runs: true once the person confirmed it on the channel (Pushover's receipt). */
  isAcknowledged?(signal: AbortSignal): Promise<boolean>;
  /** The call was answered: stop what still repeats or rings (Pushover's emergency repeats, a phone call). */
  withdraw?(): Promise<RungAnswer>;
}

/** One step of the ladder: the repeat push, or one channel the user configured. */
export interface LadderRung {
  readonly name: LadderRungName;
  ring(signal: AbortSignal): Promise<RungDelivery>;
}
