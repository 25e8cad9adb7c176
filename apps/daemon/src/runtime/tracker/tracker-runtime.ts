import type { Sleep } from "@ringback/tracker-client";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { DispatchStore } from "./dispatch-store.js";
import { Dispatches } from "./dispatches.js";
import { HookTurns, type ReportQueue } from "./hook-turns.js";
import { QuestionCalls } from "./question-calls.js";
import { TrackerQuestionReplies } from "./question-replies.js";
import { ResumePoints } from "./resume-points.js";
import { createTaskCompletionHandler, type TaskCompletionOptions } from "./task-completion.js";
import { TrackerAccess } from "./tracker-access.js";
import type { TrackerQuestions } from "./tracker-questions.js";
import { TrackerSettings } from "./tracker-settings.js";
import { WatcherManager } from "./watcher-manager.js";

export interface TrackerRuntimeOptions {
  dataDir: string;
  config: ConfigFile;
  env: NodeJS.ProcessEnv;
  /** Where tracker task reports go (the outbox). */
  outbox: ReportQueue;
  /** The agents' questions this computer rang about (see tracker-questions.ts). */
  questions: TrackerQuestions;
  log: Logger;
  now?: () => Date;
  /** Waits between tracker read retries; tests pass one that records the delays. */
  sleep?: Sleep;
  /** How long a move to blocked waits for the agent's explanation (question-explanation.ts); tests shorten it. */
  explanationWaitMs?: number;
  /** Told of each task the tracker says failed, once its report is queued (the fleet shows it failed). */
  onTaskFailed?: TaskCompletionOptions["onTaskFailed"];
}

/** Everything the daemon does with the tracker: settings, watchers, task reports, dispatches. */
export interface TrackerRuntime {
  access: TrackerAccess;
  settings: TrackerSettings;
  watchers: WatcherManager;
  dispatches: Dispatches;
  /** Hook reports pass through it on the way to the outbox (see hook-turns.ts). */
  hookTurns: HookTurns;
  /** Posts replies to tracker question calls as comments. */
  questionReplies: TrackerQuestionReplies;
  /** Connects the watchers of the saved workspaces. */
  start(): Promise<void>;
  /** Closes the watchers and ends pending report retries. */
  stop(): Promise<void>;
}

export async function createTrackerRuntime(options: TrackerRuntimeOptions): Promise<TrackerRuntime> {
  const { config, env, log } = options;
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const access = new TrackerAccess({ config, env, log, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const hookTurns = new HookTurns(log);
  const questionCalls = new QuestionCalls({
    outbox: options.outbox,
    questions: options.questions,
    log,
    now: () => now().getTime(),
    signal: stopping.signal,
    ...(options.explanationWaitMs === undefined ? {} : { explanationWaitMs: options.explanationWaitMs }),
  });
  const watchers = new WatcherManager({
    access,
    log,
    resumePoints: await ResumePoints.load(options.dataDir, log, now),
    onTaskFinished: createTaskCompletionHandler({
      outbox: options.outbox,
      hookTurns,
      questionCalls,
      log,
      now,
      signal: stopping.signal,
      ...(options.onTaskFailed ? { onTaskFailed: options.onTaskFailed } : {}),
    }),
    onIssueActivity: (client, activity) => questionCalls.onActivity(client, activity),
    onCatchUp: (client, workspaceId, since) => questionCalls.catchUp(client, workspaceId, since),
  });
  const store = await DispatchStore.load(options.dataDir, log);
  return {
    access,
    settings: new TrackerSettings({ access, config, watchers, log }),
    watchers,
    dispatches: new Dispatches({ access, store, log, now }),
    hookTurns,
    questionReplies: new TrackerQuestionReplies({ questions: options.questions, access, log }),
    start: () => watchers.reconnect(),
    stop: async () => {
      stopping.abort();
      await watchers.stop();
    },
  };
}
