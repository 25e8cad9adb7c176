import {
  type CallCenter,
  type CallsModel,
  type FleetEntry,
  isRoundUpCall,
  isRoundUpOver,
  Observable,
  type PreparedVoice,
  type RoundUp,
  type RoundUpAction,
  type RoundUpItem,
  type RoundUpOpening,
  reduceRoundUp,
  roundUpCalls,
  roundUpItem,
  roundUpOpening,
  startRoundUp,
  voiceCommandOf,
} from "@ringback/client";

/** The round-up in progress, as the call screen shows it; null when none is. */
export interface RoundUpView {
  readonly roundUp: RoundUp | null;
  readonly opening: RoundUpOpening | null;
  /** Every call of the round-up as its opening named it (or as it was named when it joined). */
  readonly items: Readonly<Record<string, RoundUpItem>>;
}

export interface RoundUpControllerOptions {
  readonly calls: () => CallCenter;
  /** The fleet list now: the computers' own headlines and whether a turn failed. */
  readonly fleet: () => readonly FleetEntry[];
  /** The speech path calls are read with: a voice prepared for these sentences in this language, or null. */
  readonly prepareVoice: (sentences: readonly string[], language: string) => Promise<PreparedVoice | null>;
  /** The call-waiting tone, once: a call joined the round-up's end. */
  readonly playCallWaiting: () => void;
  /**
   * One utterance heard in `language` (the browser's speech recognition), when the person turned voice commands on
   * and the browser has it; null otherwise. Read at each round-up's start.
   */
  readonly voiceCommands?: () => ((language: string) => Promise<string>) | null;
  readonly now?: () => Date;
}

/** Utterances in a row with nothing heard after which a round-up stops listening for commands. */
const VOICE_COMMAND_SILENCES_MAX = 20;

const NO_ROUND_UP: RoundUpView = { roundUp: null, opening: null, items: {} };

/**
 * When more than one call waits, the ringing call rings once for all of them: answering it starts a round-up, whose
 * opening (each call's project and checked headline, never a model's words) is read before the first call; then
 * Next, Skip and Answer go through the calls, and a call that arrives meanwhile joins the end with the call-waiting
 * tone. The call lifecycle's steps go to the call center.
 */
export class RoundUpController extends Observable<RoundUpView> {
  readonly #options: RoundUpControllerOptions;
  #openingVoice: PreparedVoice | null = null;
  #turn = 0;

  constructor(options: RoundUpControllerOptions) {
    super(NO_ROUND_UP);
    this.#options = options;
  }

  /** The calls the ringing call rings for, in reading order, when there is more than one; else none. */
  waitingItems(calls: CallsModel): RoundUpItem[] {
    const waiting = roundUpCalls(calls, this.#now());
    if (waiting.length < 2) return [];
    const fleet = this.#options.fleet();
    return waiting.map((record) => roundUpItem(record, fleet));
  }

  /** Answer on a call that rings for several: the round-up starts with its first call, its opening read first. */
  answer(ringingEventId: string): void {
    const center = this.#options.calls();
    const items = this.waitingItems(center.view.calls);
    if (items.length < 2) {
      center.answer(ringingEventId);
      return;
    }
    const opening = roundUpOpening(items);
    this.update({
      roundUp: startRoundUp(items.map((item) => item.eventId)),
      opening,
      items: Object.fromEntries(items.map((item) => [item.eventId, item])),
    });
    center.roundUpStep("heard", items[0]?.eventId ?? null);
    this.#readOpening();
    this.#listenForCommands(opening.language);
  }

  /** Next, Skip, Answer or Repeat, by touch or by voice. */
  dispatch(action: RoundUpAction): void {
    const roundUp = this.view.roundUp;
    if (!roundUp) return;
    const { roundUp: next, step } = reduceRoundUp(roundUp, action);
    if (next === roundUp) return;
    if (roundUp.position < 0 && next.position >= 0) this.#stopOpening();
    if (action.type === "repeat" && next.position < 0) this.#readOpening();
    this.#settle(next);
    if (step) this.#options.calls().roundUpStep(step.leave, step.nextEventId);
  }

  /**
   * After each step of the calls: a call that starts waiting joins the end (with the call-waiting tone), a call that
   * ended elsewhere leaves (the one in progress: the round-up goes on with the next), and hanging up ends it.
   */
  followCalls(calls: CallsModel): void {
    let roundUp = this.view.roundUp;
    if (!roundUp) return;
    const now = this.#now();
    const fleet = this.#options.fleet();
    const items = { ...this.view.items };
    const joining = Object.values(calls.records).filter(
      (record) => isRoundUpCall(record, now) && !roundUp?.eventIds.includes(record.eventId),
    );
    for (const record of joining) {
      roundUp = reduceRoundUp(roundUp, { type: "join", eventId: record.eventId }).roundUp;
      items[record.eventId] = roundUpItem(record, fleet);
    }
    if (joining.length > 0) this.#options.playCallWaiting();
    const inProgress = roundUp.eventIds[Math.max(roundUp.position, 0)];
    for (const eventId of roundUp.eventIds.slice(Math.max(roundUp.position, 0) + 1)) {
      if (!isStillWaiting(calls, eventId))
        roundUp = reduceRoundUp(roundUp, { type: "gone", eventId }).roundUp;
    }
    const status = inProgress === undefined ? undefined : calls.records[inProgress]?.status;
    if (status?.state === "in-call" || inProgress === undefined) {
      if (roundUp !== this.view.roundUp) this.update({ roundUp, items });
      return;
    }
    if (status?.state === "ended" && status.outcome === "answered") {
      // Hung up here: the round-up ends; the calls not reached wait as they were.
      this.#end();
      return;
    }
    // The call in progress ended elsewhere (answered on another device, the agent stopped waiting): go on.
    const { roundUp: after, step } = reduceRoundUp(roundUp, { type: "gone", eventId: inProgress });
    if (isRoundUpOver(after) || after.eventIds.length === 0) {
      this.#end();
      return;
    }
    this.update({ roundUp: after, items });
    // During the opening the call that left was answered first: the next one is answered in its place.
    const next = step ? step.nextEventId : (after.eventIds[0] ?? null);
    this.#options.calls().roundUpStep("heard", next);
  }

  /** Hang up during the round-up: it ends, and the calls not reached wait among the missed, for a later one. */
  hangUp(): void {
    const roundUp = this.view.roundUp;
    if (!roundUp) return;
    const later = roundUp.eventIds.slice(Math.max(roundUp.position, 0) + 1);
    this.#end();
    this.#options.calls().roundUpHangUp(later);
  }

  #settle(roundUp: RoundUp): void {
    if (isRoundUpOver(roundUp)) this.#end();
    else this.update({ roundUp });
  }

  #end(): void {
    this.#stopOpening();
    if (this.view.roundUp) this.update(NO_ROUND_UP);
  }

  /** Voice commands, one utterance after another, for as long as this round-up goes on. */
  #listenForCommands(language: string): void {
    const listen = this.#options.voiceCommands?.();
    const roundUp = this.view.roundUp;
    if (!listen || !roundUp) return;
    const isSameRoundUp = () =>
      this.view.roundUp !== null && this.view.roundUp.eventIds[0] === roundUp.eventIds[0];
    const next = async (): Promise<void> => {
      // A recogniser that keeps ending with nothing heard (no microphone) is not asked forever.
      let silent = 0;
      while (isSameRoundUp() && silent < VOICE_COMMAND_SILENCES_MAX) {
        const heard = await listen(language);
        silent = heard.trim() === "" ? silent + 1 : 0;
        const command = voiceCommandOf(heard);
        if (command && isSameRoundUp()) this.dispatch({ type: command });
      }
    };
    // A recogniser that fails (no microphone, permission refused) leaves the buttons.
    next().catch(() => undefined);
  }

  #readOpening(): void {
    const opening = this.view.opening;
    if (!opening) return;
    this.#stopOpening();
    const turn = ++this.#turn;
    const isCurrent = () => turn === this.#turn && (this.view.roundUp?.position ?? 0) < 0;
    this.#options
      .prepareVoice([opening.text], opening.language)
      .then(async (voice) => {
        if (!isCurrent()) return;
        this.#openingVoice = voice;
        const result = voice ? await voice.speak(opening.text) : "done";
        if (result === "done" && isCurrent()) this.dispatch({ type: "opening-read" });
      })
      // Without a voice the opening stays on screen; the person goes on with Next.
      .catch(() => undefined);
  }

  #stopOpening(): void {
    this.#turn += 1;
    this.#openingVoice?.cancel();
    this.#openingVoice = null;
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }
}

function isStillWaiting(calls: CallsModel, eventId: string): boolean {
  const state = calls.records[eventId]?.status.state;
  return state === "queued" || state === "ringing" || state === "missed" || state === "preparing";
}
