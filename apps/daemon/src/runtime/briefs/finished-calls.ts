import type { Outbox } from "@ringback/outbox";
import { CallRulesRuntime } from "../call-rules/call-rules-runtime.js";
import type { EscalationRuntime } from "../escalation/escalation-runtime.js";
import { FinishedCallLadders } from "../escalation/finished-call-ladders.js";
import type { ConfigFile } from "../files/config-file.js";
import type { FleetRuntime } from "../fleet/fleet-runtime.js";
import { briefChange } from "../fleet/report-changes.js";
import { fleetWatchedQueue, type ReportQueue } from "../fleet/watched-queue.js";
import type { Logger } from "../logger.js";
import type { ModelSlots } from "../model/model-slots.js";
import { awayNow } from "../presence/away-now.js";
import type { IdleAwayReader } from "../presence/idle-away.js";
import type { RelayConnection } from "../relay-link/relay-connection.js";
import { createIdentitySender } from "../relay-link/relay-sender.js";
import type { TrackerQuestions } from "../tracker/tracker-questions.js";
import { createBriefStep } from "./brief-step.js";
import { startReportOutbox } from "./report-outbox.js";
import { createReportSealer } from "./seal-report.js";

export interface FinishedCallsOptions {
  readonly dataDir: string;
  readonly config: ConfigFile;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  readonly language: string;
  readonly modelSlots: ModelSlots;
  readonly trackerQuestions: TrackerQuestions;
  readonly relayConnection: RelayConnection;
  readonly escalation: EscalationRuntime;
  readonly idleAway: IdleAwayReader;
  readonly fleet: FleetRuntime;
}

export interface FinishedCalls {
  readonly outbox: Outbox;
  /** The outbox as the routes and the tracker fill it: every report it keeps moves its agent in the fleet. */
  readonly queue: ReportQueue;
  readonly callRules: CallRulesRuntime;
  /** Ends the finished calls' ladders (before the relay link goes). */
  stopLadders(): Promise<void>;
  /** Stops the outbox and the quiet summary. */
  stop(): Promise<void>;
}

/**
 * The path of a finished turn, started: the outbox writes its brief (which gives the fleet's entry a headline), the
 * call rules hold it for the gathering window or post it quiet, and a ringing call's escalation ladder starts once
 * the relay has it.
 */
export async function startFinishedCalls(options: FinishedCallsOptions): Promise<FinishedCalls> {
  const { dataDir, config, env, log, trackerQuestions, escalation, fleet } = options;
  const isQuestion = (eventId: string) => trackerQuestions.get(eventId) !== undefined;
  const finishedLadders = new FinishedCallLadders({
    escalation,
    isAway: async () => (await awayNow(dataDir, new Date(), { log, idleAway: options.idleAway })).isAway,
    isCallRinging: (eventId, signal) => escalation.isCallRinging(eventId, signal),
    log,
    now: () => new Date(),
  });
  const callRules = await CallRulesRuntime.load({ dataDir, config, env, log, isQuestion });
  const sendFinishedCalls = () => {
    const post = createIdentitySender(config, env, createReportSealer(config, trackerQuestions), (entry) =>
      callRules.ringOf(entry.report),
    );
    // A quiet call does not ring, so it has no ladder: the quiet summary rings it.
    return callRules.sendingByRing({ quiet: post, ringing: finishedLadders.escalatingAfter(post) });
  };
  const briefStep = createBriefStep(config, options.language, options.modelSlots, trackerQuestions);
  const outbox = await startReportOutbox({
    dataDir,
    config,
    env,
    log,
    relayConnection: options.relayConnection,
    generateBrief: async (report, signal) => {
      const brief = await briefStep(report, signal);
      fleet.record(briefChange(report, brief));
      return brief;
    },
    relaySender: sendFinishedCalls,
    holdUntil: (report) => callRules.holdUntil(report),
  });
  callRules.start(outbox.entries());
  return {
    outbox,
    queue: fleetWatchedQueue(outbox, fleet, isQuestion),
    callRules,
    stopLadders: () => finishedLadders.stopAll(),
    stop: async () => {
      await outbox.stop();
      await callRules.stop();
    },
  };
}
