import type { OutboxEntry, SendFunction } from "@ringback/outbox";
import type { CallRing, CallRules, Report } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { relayAddress } from "../relay-address.js";
import { ringOf } from "./call-ring.js";
import { gatherSecondsFromEnv, savedCallRules } from "./call-rules-settings.js";
import { GatheringWindow } from "./gathering-window.js";
import { QuietCalls } from "./quiet-calls.js";
import { QuietSummary } from "./quiet-summary.js";

export interface CallRulesContext {
  dataDir: string;
  config: ConfigFile;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Whether a report in the outbox is a tracker agent's question: a needs-you call, which never waits. */
  isQuestion(eventId: string): boolean;
  now?: () => number;
}

/**
 * The person's rules for finished calls on this computer: the gathering window (a hold the outbox keeps with each
 * call), quiet posts for round-up-only and silent projects, and the daily quiet summary. A needs-you call (a tracker
 * agent's question here; permission asks never pass the outbox) always rings at once.
 */
export class CallRulesRuntime {
  readonly #context: CallRulesContext;
  readonly #now: () => number;
  readonly #window: GatheringWindow;
  readonly #quietCalls: QuietCalls;
  readonly #summary: QuietSummary;

  private constructor(context: CallRulesContext, quietCalls: QuietCalls) {
    this.#context = context;
    this.#now = context.now ?? Date.now;
    this.#window = new GatheringWindow(this.#now);
    this.#quietCalls = quietCalls;
    this.#summary = new QuietSummary({
      quietCalls,
      summaryAt: () => this.rules().quietSummaryAt,
      relay: () => {
        const relay = relayAddress(context.config, context.env);
        return relay?.deviceToken ? { serverUrl: relay.serverUrl, deviceToken: relay.deviceToken } : null;
      },
      log: context.log,
      now: this.#now,
    });
  }

  /** Reads the quiet calls kept from the last run; a bad `RINGBACK_GATHER_SECONDS` stops the start here. */
  static async load(context: CallRulesContext): Promise<CallRulesRuntime> {
    gatherSecondsFromEnv(context.env);
    return new CallRulesRuntime(context, await QuietCalls.load(context.dataDir, context.log));
  }

  rules(): CallRules {
    return savedCallRules(this.#context.config.raw, this.#context.env);
  }

  /** Saves the rules in daemon.json; they apply to the next finish, and the summary follows its new time. */
  async save(rules: CallRules): Promise<CallRules> {
    await this.#context.config.update((raw) => ({ ...raw, callRules: rules }));
    this.#summary.arm();
    const projects = Object.keys(rules.projects).length;
    this.#context.log(
      `call rules set: gathering window ${rules.gatherSeconds} s, ${projects} project rule(s), quiet summary ${rules.quietSummaryAt ?? "off"}`,
    );
    return this.rules();
  }

  /** The outbox's hold of a report as it is accepted: the end of the gathering window, or null to send at once. */
  holdUntil(report: Report): number | null {
    if (this.#isNeedsYou(report) || this.ringOf(report) === "quiet") return null;
    const { gatherSeconds } = this.rules();
    const heldUntil = this.#window.holdFor(gatherSeconds);
    if (heldUntil !== null) {
      this.#context.log(
        `${report.eventId}: held with the calls finishing until ${new Date(heldUntil).toISOString()} (gathering window of ${gatherSeconds} s)`,
      );
    }
    return heldUntil;
  }

  /** How the relay rings the report's call: quiet for a round-up-only or silent project, never for a needs-you. */
  ringOf(report: Report): CallRing {
    return this.#isNeedsYou(report) ? "ring" : ringOf(report, this.rules());
  }

  /**
   * The outbox's sender: a quiet call goes by `quiet` and, once the relay has it, waits for the quiet summary; every
   * other call goes by `ringing` (which may start its escalation ladder).
   */
  sendingByRing(sends: { quiet: SendFunction; ringing: SendFunction }): SendFunction {
    return async (entry, signal) => {
      if (this.ringOf(entry.report) !== "quiet") return sends.ringing(entry, signal);
      const outcome = await sends.quiet(entry, signal);
      if (outcome.kind === "sent") this.#quietCalls.remember(entry.report.eventId, new Date(this.#now()));
      return outcome;
    };
  }

  /** After a restart: the window the calls still held in the outbox share goes on; the summary's timer is set. */
  start(entries: readonly Readonly<OutboxEntry>[]): void {
    const held = entries.filter((entry) => entry.attempts === 0 && entry.nextAttemptAt !== null);
    this.#window.resume(held.map((entry) => Date.parse(entry.nextAttemptAt as string)));
    this.#summary.arm();
  }

  /** Rings the waiting quiet calls now, as the daily summary does. */
  ringQuietSummary() {
    return this.#summary.ring();
  }

  async stop(): Promise<void> {
    this.#summary.stop();
    await this.#quietCalls.flush();
  }

  #isNeedsYou(report: Report): boolean {
    return report.source === "tracker" && this.#context.isQuestion(report.eventId);
  }
}
