import type { AcceptResult, FinishedEntry, OutboxEntry } from "@ringback/outbox";
import type { Report } from "@ringback/protocol";
import type { CallRulesRuntime } from "./runtime/call-rules/call-rules-runtime.js";
import type { EscalationRuntime } from "./runtime/escalation/escalation-runtime.js";
import type { ConfigFile } from "./runtime/files/config-file.js";
import type { SessionsFile } from "./runtime/files/sessions-file.js";
import type { FleetRuntime } from "./runtime/fleet/fleet-runtime.js";
import type { Logger } from "./runtime/logger.js";
import type { ModelSlots } from "./runtime/model/model-slots.js";
import type { ModelTestProgress } from "./runtime/model/model-test/test-progress.js";
import type { TestsPerMinute } from "./runtime/model/model-test/tests-per-minute.js";
import type { PermissionRuntime } from "./runtime/needs-you/permission-runtime.js";
import type { RelayConnection } from "./runtime/relay-link/relay-connection.js";
import type { TrackerRuntime } from "./runtime/tracker/tracker-runtime.js";

/** What the routes need from the running daemon. */
export interface AppContext {
  config: ConfigFile;
  localKey: string;
  /** The port the daemon listens on, for the Host check (known only once listening with `--port 0`). */
  port(): number;
  outbox: { enqueue(report: Report): Promise<AcceptResult> };
  /** What the outbox holds and has finished, for `GET /local/status`. */
  outboxState: {
    entries(): readonly Readonly<OutboxEntry>[];
    finishedEntries(): readonly Readonly<FinishedEntry>[];
  };
  sessions: SessionsFile;
  /** Tracker settings, watchers, dispatches (runtime/tracker). */
  tracker: TrackerRuntime;
  /** The relay identity, link, relayed settings and replies (runtime/relay-link). */
  relay: RelayConnection;
  /** "Needs you" asks held for a phone's decision, and this computer's presence (runtime/needs-you, runtime/presence). */
  permission: PermissionRuntime;
  /** What this computer's agents are doing now, sealed for the account's devices (runtime/fleet). */
  fleet: FleetRuntime;
  /** The escalation ladder's settings and its test (runtime/escalation). */
  escalation: EscalationRuntime;
  /** The latest model test's step, for `ringback model test` (`GET /local/llm-test-progress`). */
  modelTestProgress: ModelTestProgress;
  /** The person's rules for finished calls: gathering window, a choice per project, quiet summary (runtime/call-rules). */
  callRules: CallRulesRuntime;
  systemLanguage: string;
  /** Model calls at once per endpoint: briefs and connection tests take turns against a local model. */
  modelSlots: ModelSlots;
  /** Model connection tests per device and minute: the test is not a port scanner. */
  modelTests: TestsPerMinute;
  log: Logger;
  now(): Date;
}
