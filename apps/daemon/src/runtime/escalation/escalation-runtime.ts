import {
  type EscalationTestResponse,
  type LadderRungName,
  RingbackError,
  type RungAnswer,
} from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { relayAddress } from "../relay-address.js";
import type { ChannelEndpoints } from "./channel-endpoints.js";
import { channelRung } from "./channel-rungs.js";
import { savedEscalation } from "./escalation-settings.js";
import type { LadderRung } from "./ladder-rung.js";
import { type RunningLadder, startLadder } from "./ladder-runner.js";
import { type CallKind, rungTimesMs, timingOf } from "./ladder-schedule.js";
import { isCallRinging, pushAgainRung } from "./push-again.js";

/**
 * The shortest time between two ladder tests: each one sends real alerts and may place a paid phone call, so a device
 * (or a script) pressing the button again and again gets a refusal instead.
 */
const ESCALATION_TEST_INTERVAL_MS = 30_000;

interface EscalationContext {
  readonly config: ConfigFile;
  readonly env: NodeJS.ProcessEnv;
  readonly endpoints: ChannelEndpoints;
  readonly log: Logger;
}

/** What a rung answered, in a log line: the outcome and status, never an address or a secret. */
export function describeAnswer(answer: RungAnswer): string {
  switch (answer.outcome) {
    case "sent":
      return `sent (HTTP ${answer.status})`;
    case "refused":
      return `refused (HTTP ${answer.status}: ${answer.reason})`;
    case "unreachable":
    case "skipped":
      return `${answer.outcome} (${answer.reason})`;
  }
}

/** The escalation ladders of this daemon's calls, from the settings in daemon.json. */
export class EscalationRuntime {
  readonly #context: EscalationContext;
  #lastTestAtMs: number | null = null;

  constructor(context: EscalationContext) {
    this.#context = context;
  }

  /** The app's address, the one link a channel carries: the relay this computer is linked to serves it. */
  #appUrl(): string | null {
    return relayAddress(this.#context.config, this.#context.env)?.serverUrl ?? null;
  }

  #channelRungs(): LadderRung[] {
    const { channels } = savedEscalation(this.#context.config.raw);
    const appUrl = this.#appUrl();
    return channels.map((channel) => channelRung(channel, this.#context.endpoints, appUrl));
  }

  /** The linked relay, the rungs in order (the repeat push when linked, then the user's channels) and their times. */
  #ladderOf(kind: CallKind, eventId: string) {
    const relay = relayAddress(this.#context.config, this.#context.env);
    const linked = relay?.deviceToken ? { serverUrl: relay.serverUrl, deviceToken: relay.deviceToken } : null;
    const rungs = [...(linked ? [pushAgainRung(eventId, linked)] : []), ...this.#channelRungs()];
    const timesMs = rungTimesMs(
      timingOf(savedEscalation(this.#context.config.raw).schedule, kind),
      rungs.length,
    );
    return { linked, rungs, timesMs };
  }

  /** When the last rung of a `kind` call falls due (ms after it starts ringing), or null when it never escalates. */
  lastRungAtMs(kind: CallKind): number | null {
    const { timesMs } = this.#ladderOf(kind, "");
    return timesMs?.at(-1) ?? null;
  }

  /** False once the call no longer rings at the relay (answered, acknowledged, rejected, ended, expired, quiet). */
  async isCallRinging(eventId: string, signal: AbortSignal): Promise<boolean> {
    const relay = relayAddress(this.#context.config, this.#context.env);
    if (!relay?.deviceToken) return true;
    return isCallRinging(eventId, { serverUrl: relay.serverUrl, deviceToken: relay.deviceToken }, signal);
  }

  /**
   * Starts the ladder of a call that began ringing at `startedAt`, or null when its kind never escalates. The
   * caller stops it once the call is answered or no longer waits.
   */
  start(kind: CallKind, eventId: string, startedAt: Date): RunningLadder | null {
    const { log } = this.#context;
    const { linked, rungs, timesMs } = this.#ladderOf(kind, eventId);
    if (!timesMs || rungs.length === 0) return null;
    const ladder = startLadder({
      rungs,
      timesMs,
      startedAtMs: startedAt.getTime(),
      ...(linked ? { isCallRinging: (signal: AbortSignal) => isCallRinging(eventId, linked, signal) } : {}),
      onRung: (event) =>
        log(
          `${eventId}: escalation rung ${event.rung} at ${(event.atMs / 1000).toFixed(1)} s: ${describeAnswer(event.answer)}`,
        ),
      onWithdrawn: (rung, answer) =>
        log(`${eventId}: escalation rung ${rung} withdrawn: ${describeAnswer(answer)}`),
    });
    void ladder.ended.then((end) => {
      if (end.kind === "acknowledged")
        log(`${eventId}: escalation acknowledged on ${end.rung}; no further rung`);
    });
    return ladder;
  }

  /**
   * "Test the ladder": every channel now, in order, each saying what its service answered. A Pushover emergency
   * alert is cancelled once taken (it rang once; its receipt was real); the phone call is left to ring. The repeat
   * push needs a ringing call, so it is tried with every real call only.
   */
  async test(): Promise<EscalationTestResponse> {
    const nowMs = Date.now();
    if (this.#lastTestAtMs !== null && nowMs - this.#lastTestAtMs < ESCALATION_TEST_INTERVAL_MS) {
      const seconds = Math.ceil((this.#lastTestAtMs + ESCALATION_TEST_INTERVAL_MS - nowMs) / 1000);
      throw new RingbackError(
        "rate_limited",
        `The ladder was tested a moment ago: try again in ${seconds} s.`,
      );
    }
    this.#lastTestAtMs = nowMs;
    const rungs: { rung: LadderRungName; answer: RungAnswer }[] = [
      {
        rung: "push",
        answer: { outcome: "skipped", reason: "the repeat push is sent with a ringing call only" },
      },
    ];
    const signal = new AbortController().signal;
    for (const rung of this.#channelRungs()) {
      const delivery = await rung.ring(signal);
      if (rung.name === "pushover") await delivery.withdraw?.();
      rungs.push({ rung: rung.name, answer: delivery.answer });
      this.#context.log(`escalation test: ${rung.name} ${describeAnswer(delivery.answer)}`);
    }
    return { rungs };
  }
}
