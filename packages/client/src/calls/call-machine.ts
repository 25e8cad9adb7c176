import {
  ANSWERED_IDS_MAX,
  type CallStatusChange,
  type CallStatusWrite,
  type DeviceDeliveryOutcome,
  LATE_CALL_THRESHOLD_MS,
  type SealedReportPayload,
} from "@ringback/protocol";
import type { RingSchedule } from "../ring-schedule/ring-schedule.js";
import { withDeliveryReport } from "./call-deliveries.js";
import { isMoreUrgent, sortCalls } from "./call-order.js";
import {
  type CallOutcome,
  type CallRecord,
  type CallRouting,
  type CallStatusFields,
  isWaiting,
  newCallRecord,
  type ReadingProblem,
  WAITING_STATES,
  withStatus,
} from "./call-record.js";
import { type CallRecordChange, changeRecords, isCallRecordChange } from "./call-record-changes.js";
import { hasStoppedWaiting, isNeedsYou } from "./needs-you.js";
import { isTestCall } from "./test-call.js";

/**
 * The call lifecycle of the spec ("Call lifecycle in the companion app") as one pure reducer: every row of the
 * table is a branch below, named in a comment. Side effects come back as data for the controller to run.
 */

/** Everything the device knows about calls: the records (as stored) and the answered ids. */
export interface CallsModel {
  readonly records: Readonly<Record<string, CallRecord>>;
  /** Ids of calls answered on this device, newest last, at most ANSWERED_IDS_MAX. */
  readonly answeredIds: readonly string[];
}

/** What the reducer may read besides the action: the clock, the ring schedule and who this device is. */
export interface CallEnvironment {
  readonly now: Date;
  readonly schedule: RingSchedule;
  readonly deviceId: string;
  /** When this device joined the account (ISO time); absent or null when it is not known (paired long ago). */
  readonly joinedAt?: string | null;
}

/**
 * Whether a call was raised before this device joined the account, so it must not ring here: a device that has
 * just joined would otherwise ring for the calls still open, minutes old, that rang on the other devices then.
 */
export function isRaisedBeforeJoining(occurredAt: string, joinedAt: string | null | undefined): boolean {
  if (!joinedAt) return false;
  const joined = Date.parse(joinedAt);
  return Number.isFinite(joined) && Date.parse(occurredAt) < joined;
}

/**
 * When the computer raised the call to the devices: the report's time, or the moment its brief was finished when
 * that is later. A model on a laptop may take minutes over a long report; the call it finally seals is new news,
 * and a device connected all along learns of it at once. A device that was closed or offline still learns late.
 */
function raisedToDevicesAt(record: Pick<CallRecord, "occurredAt" | "payload">): number {
  const occurred = Date.parse(record.occurredAt);
  const briefed = Date.parse(record.payload.brief.meta.generatedAt);
  return Number.isFinite(briefed) && briefed > occurred ? briefed : occurred;
}

/** A call status as the relay announces it (SSE `call-status`, or the answer to this device's write). */
export type RemoteCallStatus = CallStatusChange["status"];

/** A step of the lifecycle: a call may change state, ring, stop ringing, or have something sent for it. */
export type CallLifecycleAction =
  | { readonly type: "report-received"; readonly routing: CallRouting; readonly payload: SealedReportPayload }
  | { readonly type: "voice-ready"; readonly eventId: string }
  | { readonly type: "voice-failed"; readonly eventId: string; readonly reason: ReadingProblem }
  | { readonly type: "retry"; readonly eventId: string }
  | { readonly type: "ignore"; readonly eventId: string }
  | { readonly type: "set-aside"; readonly eventId: string }
  | { readonly type: "ring-shown"; readonly eventId: string }
  | { readonly type: "answer"; readonly eventId: string }
  | { readonly type: "answer-lost"; readonly eventId: string; readonly status: RemoteCallStatus }
  | { readonly type: "reject"; readonly eventId: string }
  | {
      /**
       * A round-up moves on: the call in progress here (if any) is left heard (ended as answered) or skipped (back
       * among the missed calls), and the next call of the round-up, if any, is answered at once, whether it rang,
       * waited in the queue or was missed.
       */
      readonly type: "round-up-step";
      readonly leave: "heard" | "skipped";
      readonly nextEventId: string | null;
    }
  | {
      /** Hang-up in a round-up: the call in progress ends heard, and the calls not reached wait for later. */
      readonly type: "round-up-hang-up";
      readonly laterEventIds: readonly string[];
    }
  | { readonly type: "hang-up"; readonly eventId: string }
  | { readonly type: "acknowledge-all"; readonly eventIds: readonly string[] }
  | {
      readonly type: "remote-status";
      readonly eventId: string;
      readonly status: RemoteCallStatus;
      readonly deviceId: string | null;
    }
  | { readonly type: "pending-calls"; readonly eventIds: readonly string[] }
  | { readonly type: "schedule-check" }
  | { readonly type: "restored" };

/** Every change of the calls model: a step of the lifecycle, or a change of what a record says. */
export type CallAction = CallLifecycleAction | CallRecordChange;

export type CallEffect =
  | { readonly type: "prepare-voice"; readonly eventId: string }
  | { readonly type: "write-status"; readonly eventId: string; readonly status: CallStatusWrite }
  | { readonly type: "report-delivery"; readonly eventId: string; readonly outcome: DeviceDeliveryOutcome };

export interface CallTransition {
  readonly model: CallsModel;
  readonly effects: readonly CallEffect[];
}

const LOST_ANSWER_OUTCOMES: Record<RemoteCallStatus, CallOutcome> = {
  answered: "answered-elsewhere",
  rejected: "rejected-elsewhere",
  acknowledged: "acknowledged-elsewhere",
  ended: "ended-elsewhere",
  expired: "expired",
};

export const EMPTY_CALLS_MODEL: CallsModel = { records: {}, answeredIds: [] };

/** Applies one action; after a lifecycle step the ring queue moves on, a record change leaves it as it is. */
export function reduceCalls(model: CallsModel, action: CallAction, env: CallEnvironment): CallTransition {
  if (isCallRecordChange(action)) {
    const records = changeRecords(model.records, action, env);
    return { model: records === model.records ? model : { ...model, records }, effects: [] };
  }
  const draft = new Draft(model, env);
  applyAction(draft, action);
  advanceRingQueue(draft);
  return draft.result();
}

/** The call ringing on this device now, if any. */
export function ringingCall(model: CallsModel): CallRecord | undefined {
  return Object.values(model.records).find((record) => record.status.state === "ringing");
}

/** The call this device is in, if any. */
export function activeCall(model: CallsModel): CallRecord | undefined {
  return Object.values(model.records).find((record) => record.status.state === "in-call");
}

/** Calls whose voice failed: the idle page shows them with retry and ignore. */
export function failedCalls(model: CallsModel): CallRecord[] {
  return sortCalls(Object.values(model.records).filter((record) => record.status.state === "failed"));
}

class Draft {
  records: Record<string, CallRecord>;
  answeredIds: string[];
  readonly effects: CallEffect[] = [];

  constructor(
    private readonly original: CallsModel,
    readonly env: CallEnvironment,
  ) {
    this.records = { ...original.records };
    this.answeredIds = [...original.answeredIds];
  }

  get at(): string {
    return this.env.now.toISOString();
  }

  isRingingAllowed(): boolean {
    return this.env.schedule.isRingingAllowed(this.env.now);
  }

  get(eventId: string): CallRecord | undefined {
    return this.records[eventId];
  }

  all(): CallRecord[] {
    return Object.values(this.records);
  }

  set(record: CallRecord): void {
    this.records[record.eventId] = record;
  }

  /** Changes status fields of the record's latest version in this draft. */
  update(record: CallRecord, change: Partial<CallStatusFields>): void {
    this.set(withStatus(this.records[record.eventId] ?? record, change));
  }

  writeStatus(record: CallRecord, status: CallStatusWrite): void {
    this.update(record, { reportedStatus: status });
    this.effects.push({ type: "write-status", eventId: record.eventId, status });
  }

  /** This device's delivery outcome, reported to the relay once per call; the record keeps it pending until then. */
  reportDelivery(record: CallRecord, outcome: DeviceDeliveryOutcome): void {
    const latest = this.records[record.eventId] ?? record;
    if (latest.status.deliveryReports?.[outcome] !== undefined) return;
    this.set(withDeliveryReport(latest, outcome, "pending"));
    this.effects.push({ type: "report-delivery", eventId: record.eventId, outcome });
  }

  end(record: CallRecord, outcome: CallOutcome): void {
    this.update(record, { state: "ended", outcome, endedAt: this.at });
  }

  miss(record: CallRecord, missedReason: CallStatusFields["missedReason"]): void {
    this.update(record, { state: "missed", missedReason });
  }

  rememberAnswered(eventId: string): void {
    if (this.answeredIds.includes(eventId)) return;
    this.answeredIds.push(eventId);
    // The oldest answered ids go first; ANSWERED_IDS_MAX is twice the records kept, so an evicted record's
    // id still stops its call from ringing again.
    if (this.answeredIds.length > ANSWERED_IDS_MAX)
      this.answeredIds.splice(0, this.answeredIds.length - ANSWERED_IDS_MAX);
  }

  result(): CallTransition {
    const isUnchanged =
      this.effects.length === 0 &&
      this.answeredIds.length === this.original.answeredIds.length &&
      this.answeredIds.every((id, index) => id === this.original.answeredIds[index]) &&
      Object.keys(this.records).every((id) => this.records[id] === this.original.records[id]);
    if (isUnchanged) return { model: this.original, effects: [] };
    return { model: { records: this.records, answeredIds: this.answeredIds }, effects: this.effects };
  }
}

function applyAction(draft: Draft, action: CallLifecycleAction) {
  switch (action.type) {
    case "report-received":
      return receiveReport(draft, action.routing, action.payload);
    case "voice-ready":
      return voiceReady(draft, action.eventId);
    case "voice-failed":
      return onlyIn(draft, action.eventId, ["preparing"], (record) =>
        // preparing | Generation fails -> the idle page shows the failed report; it does not ring.
        draft.update(record, { state: "failed", failure: action.reason }),
      );
    case "retry":
      return onlyIn(draft, action.eventId, ["failed"], (record) => {
        draft.update(record, { state: "preparing", failure: null });
        draft.effects.push({ type: "prepare-voice", eventId: record.eventId });
      });
    case "ignore":
      // Local only: another device whose voice works may still ring for it.
      return onlyIn(draft, action.eventId, ["failed"], (record) => draft.end(record, "ignored"));
    case "set-aside":
      // "Later" on the call's notification (the service worker stored it missed): local only, the others ring on.
      return onlyIn(draft, action.eventId, WAITING_STATES, (record) => draft.miss(record, "set-aside"));
    case "ring-shown":
      return onlyIn(draft, action.eventId, ["ringing"], (record) => {
        if (record.status.shownAt !== null) return;
        draft.update(record, { shownAt: draft.at });
        draft.reportDelivery(record, "shown");
      });
    case "answer":
      return answer(draft, action.eventId);
    case "answer-lost":
      // Two devices answered almost at once: the other reached the relay first, so this call ends (or the call
      // had already ended another way before this answer reached the relay).
      return onlyIn(draft, action.eventId, ["in-call"], (record) =>
        draft.end(record, LOST_ANSWER_OUTCOMES[action.status]),
      );
    case "reject":
      return onlyIn(draft, action.eventId, ["ringing"], (record) => {
        draft.end(record, "rejected");
        draft.writeStatus(record, "rejected");
      });
    case "round-up-step":
      return roundUpStep(draft, action.leave, action.nextEventId);
    case "round-up-hang-up":
      roundUpStep(draft, "heard", null);
      // Not rung again at once: the person just ended the round-up.
      for (const eventId of action.laterEventIds)
        onlyIn(draft, eventId, ["queued", "ringing"], (record) => draft.miss(record, "skipped"));
      return;
    case "hang-up":
      return onlyIn(draft, action.eventId, ["in-call"], (record) => {
        draft.end(record, "answered");
        draft.writeStatus(record, "ended");
      });
    case "acknowledge-all":
      return acknowledgeAll(draft, action.eventIds);
    case "remote-status":
      return remoteStatus(draft, action);
    case "pending-calls":
      return pendingCalls(draft, action.eventIds);
    case "schedule-check":
      return scheduleCheck(draft);
    case "restored":
      return restored(draft);
  }
}

function onlyIn(
  draft: Draft,
  eventId: string,
  states: readonly CallStatusFields["state"][],
  apply: (record: CallRecord) => void,
): void {
  const record = draft.get(eventId);
  if (record && states.includes(record.status.state)) apply(record);
}

function receiveReport(draft: Draft, routing: CallRouting, payload: SealedReportPayload): void {
  const existing = draft.get(routing.eventId);
  if (existing) {
    // any | App restart or page refresh | already ended locally -> not shown again; the result is re-reported.
    // Any other state: the relay pushed the call again; a call shows at most once per device.
    if (existing.status.reportedStatus && !isWaiting(existing) && existing.status.state !== "in-call") {
      draft.writeStatus(existing, existing.status.reportedStatus);
    }
    return;
  }
  if (draft.answeredIds.includes(routing.eventId)) {
    // Answered here once and its record since deleted: it never rings again.
    draft.effects.push({ type: "write-status", eventId: routing.eventId, status: "ended" });
    return;
  }
  const record = newCallRecord(routing, payload, draft.env.now);
  draft.set(record);
  if (
    routing.ring === "quiet" &&
    !isNeedsYou(record) &&
    !isRaisedBeforeJoining(record.occurredAt, draft.env.joinedAt)
  ) {
    // A quiet call never rings: it waits among the missed calls and is read in the next round-up.
    draft.miss(record, "quiet");
    return;
  }
  admit(draft, routing.eventId);
}

/** The checks a report passes before it may ring: on a new report, and again for an unshown call after a restart. */
function admit(draft: Draft, eventId: string): void {
  const record = draft.get(eventId);
  if (!record) return;
  if (isRaisedBeforeJoining(record.occurredAt, draft.env.joinedAt)) {
    // any waiting | Report raised before this device joined the account -> missed (never rings here).
    draft.miss(record, "before-joining");
  } else if (isNeedsYou(record)) {
    // A "needs you" call is late only once the agent stopped waiting (its ask's expiresAt): until then a decision
    // still lets the agent go on, so it rings however long the way here took.
    if (hasStoppedWaiting(record, draft.env.now)) draft.miss(record, "stopped-waiting");
    else prepareOrMiss(draft, record);
  } else if (draft.env.now.getTime() - raisedToDevicesAt(record) > LATE_CALL_THRESHOLD_MS) {
    // any waiting | Device learns of the report more than 2 minutes after it was raised
    // (app closed, offline, update or restart) -> missed.
    draft.miss(record, "learned-late");
  } else {
    prepareOrMiss(draft, record);
  }
}

function prepareOrMiss(draft: Draft, record: CallRecord): void {
  const { eventId } = record;
  if (!draft.isRingingAllowed()) {
    // any waiting | Report arrives outside a ringing period (including while the app was closed) -> missed.
    draft.miss(record, "outside-ringing-period");
  } else {
    // (none) | Report received -> preparing: the whole voice is synthesised before ringing.
    draft.update(record, { state: "preparing" });
    draft.effects.push({ type: "prepare-voice", eventId });
  }
}

function voiceReady(draft: Draft, eventId: string): void {
  onlyIn(draft, eventId, ["preparing"], (record) => {
    if (hasStoppedWaiting(record, draft.env.now)) {
      // The agent stopped waiting while the voice was prepared: ringing now would be for nothing.
      draft.miss(record, "stopped-waiting");
    } else if (draft.isRingingAllowed()) {
      // preparing | Voice ready | Ringing allowed now -> ringing (through the queue when another call is on).
      draft.update(record, { state: "queued" });
    } else {
      draft.miss(record, "outside-ringing-period");
    }
  });
}

function answer(draft: Draft, eventId: string): void {
  // ringing | Answer -> in call; missed | Answer from calls page -> in call. One call at a time.
  if (draft.all().some((record) => record.status.state === "in-call")) return;
  onlyIn(draft, eventId, ["ringing", "missed"], (record) => answerHere(draft, record));
}

function answerHere(draft: Draft, record: CallRecord): void {
  for (const other of draft.all()) {
    // A missed call answered while another rings: the ringing one waits its turn again.
    if (other.status.state === "ringing" && other.eventId !== record.eventId)
      draft.update(other, { state: "queued" });
  }
  draft.update(record, { state: "in-call", answeredAt: draft.at });
  draft.rememberAnswered(record.eventId);
  draft.writeStatus(record, "answered");
  // The call screen opens: the relay hears it after the answer, which must not wait for it.
  draft.reportDelivery(record, "opened");
}

function roundUpStep(draft: Draft, leave: "heard" | "skipped", nextEventId: string | null): void {
  const current = draft.all().find((record) => record.status.state === "in-call");
  if (current) {
    if (leave === "heard") {
      draft.end(current, "answered");
      draft.writeStatus(current, "ended");
    } else {
      // The relay keeps it answered (the other devices stopped ringing); here it waits for later.
      draft.miss(current, "skipped");
    }
  }
  if (nextEventId === null) return;
  onlyIn(draft, nextEventId, ["queued", "ringing", "missed"], (next) => answerHere(draft, next));
}

function acknowledgeAll(draft: Draft, eventIds: readonly string[]): void {
  // missed | Acknowledge-all | missed calls in the current tab -> acknowledged; server status `acknowledged`.
  for (const eventId of eventIds) {
    onlyIn(draft, eventId, ["missed"], (record) => {
      draft.update(record, { state: "acknowledged", outcome: "acknowledged", endedAt: draft.at });
      draft.writeStatus(record, "acknowledged");
    });
  }
}

function remoteStatus(draft: Draft, action: Extract<CallLifecycleAction, { type: "remote-status" }>): void {
  const record = draft.get(action.eventId);
  if (!record) return;
  const isOwnEcho =
    action.deviceId === draft.env.deviceId ||
    // A replayed event says "answered" without naming the device: this device's own answer if it remembers one.
    (action.deviceId === null && action.status === "answered" && draft.answeredIds.includes(action.eventId));
  if (isOwnEcho) return;
  const state = record.status.state;
  const isOpen = isWaiting(record) || state === "missed" || state === "failed";
  switch (action.status) {
    case "answered":
      // ringing | Answer on one device -> all other devices stop ringing, remove it from missed and record
      // "answered on another device". In call here too: the other device reached the relay first.
      if (isOpen || state === "in-call") draft.end(record, "answered-elsewhere");
      return;
    case "rejected":
      // ringing | Reject on one device -> ended; same effect on other devices.
      if (isOpen) draft.end(record, "rejected-elsewhere");
      return;
    case "acknowledged":
      // Acknowledge-all on one device: a missed call is acknowledged, a waiting one ends.
      if (state === "missed") {
        draft.update(record, { state: "acknowledged", outcome: "acknowledged-elsewhere", endedAt: draft.at });
      } else if (isOpen) {
        draft.end(record, "acknowledged-elsewhere");
      }
      return;
    case "ended":
      if (isOpen) draft.end(record, "ended-elsewhere");
      return;
    case "expired":
      // Nobody answered in time: the relay erased the ciphertext; the device keeps it as missed.
      if (isWaiting(record)) draft.miss(record, "expired");
      return;
  }
}

function pendingCalls(draft: Draft, eventIds: readonly string[]): void {
  // ringing | ... | Calls ended elsewhere while a device was disconnected are removed on reconnect.
  const pending = new Set(eventIds);
  for (const record of draft.all()) {
    // A test call was made here: the relay never heard of it.
    if (isTestCall(record.eventId)) continue;
    const isOpen = isWaiting(record) || record.status.state === "missed" || record.status.state === "failed";
    if (isOpen && !pending.has(record.eventId)) draft.end(record, "ended-elsewhere");
  }
}

function scheduleCheck(draft: Draft): void {
  for (const record of draft.all()) {
    // A "needs you" call whose agent stopped waiting stops ringing: a decision now would be refused.
    if (isWaiting(record) && hasStoppedWaiting(record, draft.env.now)) draft.miss(record, "stopped-waiting");
  }
  if (draft.isRingingAllowed()) return;
  // waiting | A non-ringing period begins before answer -> missed.
  for (const record of draft.all()) {
    if (isWaiting(record)) draft.miss(record, "ringing-period-ended");
  }
}

function restored(draft: Draft): void {
  for (const record of draft.all()) {
    switch (record.status.state) {
      case "in-call":
        // in call | App restart | answered and interrupted -> missed; never rings again.
        draft.miss(record, "interrupted");
        break;
      case "ringing":
        // Shown once already; a call shows at most once per device.
        if (record.status.shownAt !== null) draft.miss(record, "interrupted");
        else admit(draft, record.eventId);
        break;
      case "preparing":
      case "queued":
        // The synthesised voice lived in the closed page: prepared again if the call may still ring.
        admit(draft, record.eventId);
        break;
      default:
        // Ended, acknowledged, missed and failed calls are unchanged.
        break;
    }
  }
}

/**
 * queued | Order of ringing -> ringing: one call rings at a time, chosen by issue priority, then update time.
 * A head that is ringing but not yet shown yields to a more urgent report; a shown call keeps ringing.
 */
function advanceRingQueue(draft: Draft): void {
  const queued = sortCalls(draft.all().filter((record) => record.status.state === "queued"));
  const best = queued[0];
  if (!best) return;
  const ringing = draft.all().find((record) => record.status.state === "ringing");
  if (ringing) {
    if (ringing.status.shownAt === null && isMoreUrgent(best, ringing)) {
      draft.update(ringing, { state: "queued" });
      draft.update(best, { state: "ringing" });
    }
    return;
  }
  if (draft.all().some((record) => record.status.state === "in-call")) return;
  draft.update(best, { state: "ringing" });
}
