/**
 * A round-up as a sequence: the opening first, then each call in turn. Next leaves the call heard, Skip leaves it
 * waiting for later, Answer stays on it to reply or decide; a call that arrives meanwhile joins the end. Pure: the
 * call lifecycle's step comes back as data for the companion to run (`CallCenter.roundUpStep`).
 */
export interface RoundUp {
  /** The calls in the order they are read. */
  readonly eventIds: readonly string[];
  /** -1 while the opening is read, then the index of the call in progress; `eventIds.length` once all are done. */
  readonly position: number;
  /** The person chose Answer on the call in progress: its reply or decision is open. */
  readonly isAnswering: boolean;
  /** Grows each time what is read now should be read again from its start (Repeat). */
  readonly readings: number;
  /** The calls that joined after the round-up started, to mark with the call-waiting tone. */
  readonly joined: readonly string[];
}

export type RoundUpAction =
  | { readonly type: "opening-read" }
  | { readonly type: "next" }
  | { readonly type: "skip" }
  | { readonly type: "answer" }
  | { readonly type: "repeat" }
  /** A call that started waiting during the round-up. */
  | { readonly type: "join"; readonly eventId: string }
  /** A call of the round-up ended without it (answered on another device, the agent stopped waiting). */
  | { readonly type: "gone"; readonly eventId: string };

/** What the call lifecycle does when the round-up moves: leave the call in progress, answer the next (if any). */
export interface RoundUpStep {
  readonly leave: "heard" | "skipped";
  readonly nextEventId: string | null;
}

export interface RoundUpTransition {
  readonly roundUp: RoundUp;
  readonly step: RoundUpStep | null;
}

/** A round-up of `eventIds` (in reading order, see `roundUpCalls`), its opening about to be read. */
export function startRoundUp(eventIds: readonly string[]): RoundUp {
  return { eventIds: [...eventIds], position: -1, isAnswering: false, readings: 0, joined: [] };
}

/** The call in progress, or null while the opening is read and once the round-up is over. */
export function currentRoundUpCall(roundUp: RoundUp): string | null {
  return roundUp.position < 0 ? null : (roundUp.eventIds[roundUp.position] ?? null);
}

export function isRoundUpOver(roundUp: RoundUp): boolean {
  return roundUp.position >= roundUp.eventIds.length;
}

export function reduceRoundUp(roundUp: RoundUp, action: RoundUpAction): RoundUpTransition {
  if (isRoundUpOver(roundUp)) return { roundUp, step: null };
  switch (action.type) {
    case "opening-read":
      return roundUp.position < 0
        ? { roundUp: { ...roundUp, position: 0 }, step: null }
        : { roundUp, step: null };
    case "next":
    case "skip":
      // During the opening both go straight to the first call (it is already answered).
      if (roundUp.position < 0) return { roundUp: { ...roundUp, position: 0 }, step: null };
      return moveOn(roundUp, action.type === "next" ? "heard" : "skipped");
    case "answer":
      if (roundUp.position < 0)
        return { roundUp: { ...roundUp, position: 0, isAnswering: true }, step: null };
      return { roundUp: { ...roundUp, isAnswering: true }, step: null };
    case "repeat":
      return { roundUp: { ...roundUp, readings: roundUp.readings + 1 }, step: null };
    case "join":
      if (roundUp.eventIds.includes(action.eventId)) return { roundUp, step: null };
      return {
        roundUp: {
          ...roundUp,
          eventIds: [...roundUp.eventIds, action.eventId],
          joined: [...roundUp.joined, action.eventId],
        },
        step: null,
      };
    case "gone":
      return gone(roundUp, action.eventId);
  }
}

function moveOn(roundUp: RoundUp, leave: RoundUpStep["leave"]): RoundUpTransition {
  const position = roundUp.position + 1;
  return {
    roundUp: { ...roundUp, position, isAnswering: false },
    step: { leave, nextEventId: roundUp.eventIds[position] ?? null },
  };
}

function gone(roundUp: RoundUp, eventId: string): RoundUpTransition {
  const index = roundUp.eventIds.indexOf(eventId);
  // Already read (or never in it): nothing changes.
  if (index < roundUp.position || index < 0) return { roundUp, step: null };
  if (index === roundUp.position) return moveOn(roundUp, "heard");
  return {
    roundUp: { ...roundUp, eventIds: roundUp.eventIds.filter((id) => id !== eventId) },
    step: null,
  };
}
