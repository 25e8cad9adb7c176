import {
  type CallStatusWrite,
  type IssueRefresh,
  RefreshIssuesResponse,
  type RelayedEvent,
} from "@ringback/protocol";
import type { CallNotifier } from "../audio/call-notifications.js";
import type { Ringer } from "../audio/ringer.js";
import { DEFAULT_INCOMING_TONE } from "../audio/tones.js";
import {
  type CallAction,
  type CallEffect,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  reduceCalls,
  ringingCall,
} from "../calls/call-machine.js";
import type { CallRecord } from "../calls/call-record.js";
import { missedIdsInTab } from "../calls/calls-page.js";
import { applyIssueRefresh, issueRefreshBatches } from "../calls/issue-refresh.js";
import { defaultDeviceName, deviceKindOf } from "../pairing/device-name.js";
import {
  createAccount,
  type DeviceInvitation,
  inviteDevice,
  joinWithCode,
  joinWithLink,
} from "../pairing/pairing-flow.js";
import { hasPairingFragment } from "../pairing/pairing-link.js";
import { CallStream, type StreamConnection } from "../relay/call-stream.js";
import { relayDaemonRequest } from "../relay/daemon-request.js";
import { OpenCallError, type OpenCallProblem, openRelayedEvent } from "../relay/open-call.js";
import { RelayClient } from "../relay/relay-client.js";
import { ALWAYS_RING, type RingSchedule } from "../schedule/ring-schedule.js";
import { CallRecordsStore, loadAnsweredIds, saveAnsweredIds } from "../storage/call-records.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { LocalSettings, type Pairing } from "../storage/local-settings.js";
import { type BriefScript, briefScript, scriptSentences } from "../voice/brief-script.js";
import type { PreparedVoice, VoiceOption, VoicePlatform } from "../voice/voice-platform.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from "../voice/voice-settings.js";
import { type StatusWriteOutcome, StatusWriter } from "./status-writer.js";

/** How often the ring schedule is evaluated for "a non-ringing period begins before answer". */
export const SCHEDULE_CHECK_MS = 15_000;

export type AppPhase = "loading" | "welcome" | "ready";

/** A relayed call this device could not open: shown on the idle page, without content. */
export interface UnreadableCall {
  readonly eventId: string;
  readonly problem: OpenCallProblem;
}

/** Everything the screens render. */
export interface AppView {
  readonly phase: AppPhase;
  readonly pairing: Pairing | null;
  readonly calls: CallsModel;
  readonly connection: StreamConnection;
  readonly isSoundBlocked: boolean;
  /** The user made the "enable sound" gesture on an earlier visit; a tap anywhere unlocks sound again. */
  readonly hasEnabledSound: boolean;
  readonly notificationPermission: NotificationPermission | "unsupported";
  readonly unreadable: readonly UnreadableCall[];
  readonly voice: VoiceSettings;
  readonly formOfAddress: string | null;
  /** The address the app was opened with when it carried a pairing link. */
  readonly pairingLink: string | null;
  /** Why the device is on the welcome page again, e.g. removed on another device. */
  readonly notice: string | null;
}

export interface AppDependencies {
  readonly store: KeyValueStore;
  readonly voice: VoicePlatform;
  readonly ringer: Ringer;
  readonly notifier: CallNotifier;
  readonly schedule?: RingSchedule;
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
  /** The page's address (`location.href`), read for a pairing link, and the web app's address for new links. */
  readonly href: string;
  readonly userAgent: string;
  readonly isPageHidden?: () => boolean;
}

/**
 * The app's one lifecycle object: loads the device's data, keeps the relay stream, runs the call reducer and its
 * effects (voice preparation, status write-back), persists records, and rings. Screens only render its view and
 * call its methods.
 */
export class AppController {
  #view: AppView;
  readonly #listeners = new Set<(view: AppView) => void>();
  readonly #settings: LocalSettings;
  readonly #records: CallRecordsStore;
  readonly #prepared = new Map<string, { script: BriefScript; voice: PreparedVoice }>();
  #stream: CallStream | null = null;
  #writer: StatusWriter | null = null;
  #scheduleTimer: ReturnType<typeof setInterval> | undefined;
  #persisting: Promise<void> = Promise.resolve();
  #ringingId: string | null = null;

  constructor(private readonly deps: AppDependencies) {
    this.#settings = new LocalSettings(deps.store);
    this.#records = new CallRecordsStore(deps.store);
    this.#view = {
      phase: "loading",
      pairing: null,
      calls: EMPTY_CALLS_MODEL,
      connection: "connecting",
      isSoundBlocked: deps.ringer.isSoundBlocked,
      hasEnabledSound: false,
      notificationPermission: deps.notifier.permission,
      unreadable: [],
      voice: DEFAULT_VOICE_SETTINGS,
      formOfAddress: null,
      pairingLink: hasPairingFragment(deps.href) ? deps.href : null,
      notice: null,
    };
  }

  get view(): AppView {
    return this.#view;
  }

  subscribe(listener: (view: AppView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async start(): Promise<void> {
    await this.#settings.discardLegacy();
    const [pairing, voice, formOfAddress, hasEnabledSound] = await Promise.all([
      this.#settings.loadPairing(),
      this.#settings.loadVoice(),
      this.#settings.loadFormOfAddress(),
      this.#settings.isSoundEnabled(),
    ]);
    this.#update({ voice, formOfAddress, hasEnabledSound });
    if (!pairing) {
      this.#update({ phase: "welcome" });
      return;
    }
    await this.#enterReady(pairing);
  }

  stop(): void {
    this.#stream?.close();
    this.#writer?.stop();
    clearInterval(this.#scheduleTimer);
    this.deps.ringer.stop();
  }

  /** Settles when every record change so far is on the device. */
  persisted(): Promise<void> {
    return this.#persisting;
  }

  // Welcome ----------------------------------------------------------------------------------------------------

  get defaultDeviceName(): string {
    return defaultDeviceName(this.deps.userAgent);
  }

  /** The relay address a new account or a code join defaults to: the relay that served this page. */
  get defaultServerUrl(): string {
    return new URL(this.deps.href).origin;
  }

  relayClient(serverUrl: string): RelayClient {
    return new RelayClient({ serverUrl, fetch: this.deps.fetch });
  }

  async joinWithLink(link: string, deviceName: string): Promise<void> {
    await this.#paired(await joinWithLink(link, this.#newDevice(deviceName)));
  }

  async joinWithCode(
    input: { serverUrl: string; code: string; phrase: string },
    deviceName: string,
  ): Promise<void> {
    await this.#paired(await joinWithCode(input, this.#newDevice(deviceName)));
  }

  async createAccount(
    input: { serverUrl: string; claimCode?: string; phrase?: string },
    deviceName: string,
  ): Promise<void> {
    await this.#paired(await createAccount(input, this.#newDevice(deviceName)));
  }

  // Calls ------------------------------------------------------------------------------------------------------

  answer(eventId: string): void {
    this.#dispatch({ type: "answer", eventId });
  }

  reject(eventId: string): void {
    this.#dispatch({ type: "reject", eventId });
  }

  hangUp(eventId: string): void {
    this.#dispatch({ type: "hang-up", eventId });
    this.#prepared.delete(eventId);
  }

  ringShown(eventId: string): void {
    this.#dispatch({ type: "ring-shown", eventId });
  }

  retry(eventId: string): void {
    this.#dispatch({ type: "retry", eventId });
  }

  ignore(eventId: string): void {
    this.#dispatch({ type: "ignore", eventId });
  }

  /** Acknowledge-all: the missed calls of the calls page's current tab. */
  acknowledgeAll(tab: string): void {
    this.#dispatch({
      type: "acknowledge-all",
      eventIds: missedIdsInTab(Object.values(this.#view.calls.records), tab),
    });
  }

  /** The reading script of a call, with the user's form of address. */
  script(record: CallRecord): BriefScript {
    return (
      this.#prepared.get(record.eventId)?.script ??
      briefScript(record.payload, { formOfAddress: this.#view.formOfAddress })
    );
  }

  /** The voice prepared before ringing; a missed call answered later is prepared now. Null when none can be. */
  async voiceFor(record: CallRecord): Promise<PreparedVoice | null> {
    const prepared = this.#prepared.get(record.eventId);
    if (prepared) return prepared.voice;
    const script = this.script(record);
    try {
      return await this.deps.voice.prepare(scriptSentences(script), script.language, this.#view.voice);
    } catch {
      return null;
    }
  }

  /**
   * The calls page on open: the current priority, update time and project of the calls' tracker issues, asked of the
   * computer that reported them (`POST /tracker/issues` relayed). A computer that is offline or not set up for the
   * tracker leaves its calls as they were.
   */
  async refreshIssues(): Promise<void> {
    const pairing = this.#requirePairing();
    const client = this.client();
    const byComputer = new Map<string, CallRecord[]>();
    for (const record of Object.values(this.#view.calls.records)) {
      if (!record.issue || !record.fromDeviceId) continue;
      byComputer.set(record.fromDeviceId, [...(byComputer.get(record.fromDeviceId) ?? []), record]);
    }
    const refreshes: IssueRefresh[] = [];
    for (const [computerId, records] of byComputer) {
      try {
        for (const issues of issueRefreshBatches(records)) {
          const response = await relayDaemonRequest(client, pairing.key, computerId, {
            method: "POST",
            path: "/tracker/issues",
            body: { issues },
          });
          const parsed = RefreshIssuesResponse.safeParse(response.body);
          if (response.status !== 200 || !parsed.success) break;
          refreshes.push(...parsed.data.issues);
        }
      } catch {
        // Offline, timed out or another key: the calls keep the values they have.
      }
    }
    if (refreshes.length === 0) return;
    const records = { ...this.#view.calls.records };
    const changed: CallRecord[] = [];
    for (const record of Object.values(records)) {
      const refreshed = applyIssueRefresh(record, refreshes);
      if (refreshed === record) continue;
      records[record.eventId] = refreshed;
      changed.push(refreshed);
    }
    this.#update({ calls: { ...this.#view.calls, records } });
    this.#persisting = this.#persisting
      .then(async () => {
        for (const record of changed) await this.#records.save(record);
      })
      .catch((error: unknown) => console.error("Could not save call records.", error));
  }

  // Settings ---------------------------------------------------------------------------------------------------

  client(): RelayClient {
    const pairing = this.#requirePairing();
    return new RelayClient({
      serverUrl: pairing.identity.serverUrl,
      deviceToken: pairing.identity.deviceToken,
      fetch: this.deps.fetch,
    });
  }

  async inviteDevice(): Promise<DeviceInvitation> {
    const webAppUrl = new URL(".", this.deps.href).href;
    return inviteDevice(this.client(), this.#requirePairing(), webAppUrl);
  }

  listVoices(): Promise<VoiceOption[]> {
    return this.deps.voice.listVoices();
  }

  /** Settings › Voice: reads a sentence with the chosen voice and speed. */
  async sampleVoice(text: string, language: string): Promise<void> {
    const voice = await this.deps.voice.prepare([text], language, this.#view.voice);
    await voice.speak(text);
  }

  async saveVoice(voice: VoiceSettings): Promise<void> {
    await this.#settings.saveVoice(voice);
    this.#update({ voice: await this.#settings.loadVoice() });
  }

  /** Any tap or key on the page: browsers allow sound from then on, so a later call rings out loud. */
  async unlockSound(): Promise<void> {
    await this.deps.ringer.unlock();
    this.#update({ isSoundBlocked: this.deps.ringer.isSoundBlocked });
    if (this.#ringingId !== null && !this.deps.ringer.isSoundBlocked)
      this.deps.ringer.start(DEFAULT_INCOMING_TONE);
  }

  /** The first-visit "enable sound" gesture: unlocks audio for this page and asks for notifications. */
  async enableSound(): Promise<void> {
    await this.deps.ringer.unlock();
    await this.#settings.setSoundEnabled();
    await this.deps.notifier.requestPermission();
    this.#update({
      isSoundBlocked: this.deps.ringer.isSoundBlocked,
      notificationPermission: this.deps.notifier.permission,
    });
    // A call already ringing silently starts sounding now.
    if (this.#ringingId !== null) this.deps.ringer.start(DEFAULT_INCOMING_TONE);
  }

  /** This device was removed (401 or the relay said so): back to the welcome page, history kept. */
  async deviceRemoved(notice: string): Promise<void> {
    this.stop();
    await this.#settings.clearPairing();
    this.#stream = null;
    this.#writer = null;
    this.#update({ phase: "welcome", pairing: null, notice, pairingLink: null });
  }

  // Internals --------------------------------------------------------------------------------------------------

  #newDevice(deviceName: string) {
    const name = deviceName.trim() || this.defaultDeviceName;
    return { deviceName: name, deviceKind: deviceKindOf(this.deps.userAgent), fetch: this.deps.fetch };
  }

  async #paired(pairing: Pairing): Promise<void> {
    await this.#settings.savePairing(pairing);
    this.#update({ pairingLink: null, notice: null });
    await this.#enterReady(pairing);
  }

  #requirePairing(): Pairing {
    const pairing = this.#view.pairing;
    if (!pairing) throw new Error("This device is not paired.");
    return pairing;
  }

  async #enterReady(pairing: Pairing): Promise<void> {
    const [records, answeredIds, lastEventId] = await Promise.all([
      this.#records.loadAll(),
      loadAnsweredIds(this.deps.store),
      this.#settings.loadLastEventId(),
    ]);
    const calls: CallsModel = {
      records: Object.fromEntries(records.map((record) => [record.eventId, record])),
      answeredIds,
    };
    this.#update({ phase: "ready", pairing, calls, isSoundBlocked: this.deps.ringer.isSoundBlocked });
    this.#dispatch({ type: "restored" });
    const client = this.client();
    this.#writer = new StatusWriter(
      (eventId, status) => client.writeCallStatus(eventId, status),
      (eventId, status, outcome) => this.#onStatusWritten(eventId, status, outcome),
    );
    this.#stream = new CallStream({
      serverUrl: pairing.identity.serverUrl,
      deviceToken: pairing.identity.deviceToken,
      lastEventId,
      fetch: this.deps.fetch,
      handlers: {
        onCall: (event) => this.#onCall(pairing, event),
        onCallStatus: (change) =>
          this.#dispatch({
            type: "remote-status",
            eventId: change.eventId,
            status: change.status,
            deviceId: change.deviceId,
          }),
        onSynced: ({ resumedFrom, backlogEventIds }) => {
          // Without a resume id the relay sent every call still open: any other open call here ended elsewhere.
          if (resumedFrom === null) this.#dispatch({ type: "pending-calls", eventIds: backlogEventIds });
        },
        onLastEventId: (id) => this.#settings.saveLastEventId(id),
        onConnection: (connection) => {
          this.#update({ connection });
          if (connection === "open") this.#writer?.flush().catch(() => undefined);
        },
        onDeviceRemoved: () => {
          this.deviceRemoved("This device was removed from the account.").catch(() => undefined);
        },
      },
    });
    this.#stream.start();
    const schedule = this.deps.schedule ?? ALWAYS_RING;
    if (schedule !== ALWAYS_RING) {
      this.#scheduleTimer = setInterval(() => this.#dispatch({ type: "schedule-check" }), SCHEDULE_CHECK_MS);
    }
  }

  async #onCall(pairing: Pairing, event: RelayedEvent): Promise<void> {
    const existing = this.#view.calls.records[event.eventId];
    let payload = existing?.payload;
    if (!payload) {
      try {
        payload = await openRelayedEvent(pairing.key, event);
      } catch (error) {
        if (!(error instanceof OpenCallError)) throw error;
        const unreadable = this.#view.unreadable.filter((call) => call.eventId !== event.eventId);
        this.#update({ unreadable: [...unreadable, { eventId: event.eventId, problem: error.problem }] });
        return;
      }
    }
    const routing = {
      eventId: event.eventId,
      source: event.source,
      occurredAt: event.occurredAt,
      fromDeviceId: event.fromDeviceId,
    };
    this.#dispatch({ type: "report-received", routing, payload });
    // A replayed call that was already answered, rejected or acknowledged elsewhere: the relay does not say by
    // which device; the reducer takes an answer this device remembers as its own.
    if (event.status !== "pending") {
      this.#dispatch({ type: "remote-status", eventId: event.eventId, status: event.status, deviceId: null });
    }
  }

  #dispatch(action: CallAction): void {
    const before = this.#view.calls;
    const transition = reduceCalls(before, action, {
      now: this.deps.now?.() ?? new Date(),
      schedule: this.deps.schedule ?? ALWAYS_RING,
      deviceId: this.#view.pairing?.identity.deviceId ?? "",
    });
    if (transition.model === before) return;
    this.#persist(before, transition.model);
    this.#update({ calls: transition.model });
    for (const effect of transition.effects) this.#run(effect);
    this.#followRinging();
  }

  #persist(before: CallsModel, after: CallsModel): void {
    const changed = Object.values(after.records).filter(
      (record) => before.records[record.eventId] !== record,
    );
    const isAnsweredChanged = before.answeredIds !== after.answeredIds;
    this.#persisting = this.#persisting
      .then(async () => {
        for (const record of changed) {
          // The reducer changes only status fields: an existing record merges them into what is stored, so
          // nothing another context of this device wrote meanwhile (conversation, replies) is lost.
          const { evicted } = before.records[record.eventId]
            ? await this.#records.saveLaterStatus(record)
            : await this.#records.save(record);
          if (evicted.length > 0) this.#forget(evicted);
        }
        if (isAnsweredChanged) await saveAnsweredIds(this.deps.store, after.answeredIds);
      })
      .catch((error: unknown) => console.error("Could not save call records.", error));
  }

  /** Records deleted to make room leave memory too (never the ringing or active call: they are the newest). */
  #forget(eventIds: readonly string[]): void {
    const records = { ...this.#view.calls.records };
    for (const eventId of eventIds) delete records[eventId];
    this.#update({ calls: { ...this.#view.calls, records } });
  }

  #run(effect: CallEffect): void {
    switch (effect.type) {
      case "prepare-voice":
        this.#prepareVoice(effect.eventId).catch(() => undefined);
        return;
      case "write-status":
        this.#writer?.enqueue(effect.eventId, effect.status).catch(() => undefined);
        return;
    }
  }

  async #prepareVoice(eventId: string): Promise<void> {
    const record = this.#view.calls.records[eventId];
    if (!record) return;
    const script = briefScript(record.payload, { formOfAddress: this.#view.formOfAddress });
    try {
      const voice = await this.deps.voice.prepare(scriptSentences(script), script.language, this.#view.voice);
      this.#prepared.set(eventId, { script, voice });
      this.#dispatch({ type: "voice-ready", eventId });
    } catch (error) {
      this.#dispatch({
        type: "voice-failed",
        eventId,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }

  #onStatusWritten(eventId: string, status: CallStatusWrite, outcome: StatusWriteOutcome): void {
    if (outcome.kind === "device-removed") {
      this.deviceRemoved("This device was removed from the account.").catch(() => undefined);
      return;
    }
    if (status !== "answered") return;
    if (outcome.kind === "answered-elsewhere") {
      this.#dispatch({ type: "answer-lost", eventId, status: "answered" });
    } else if (outcome.kind === "written" && !outcome.result.won && outcome.result.status !== "pending") {
      this.#dispatch({ type: "answer-lost", eventId, status: outcome.result.status });
    }
  }

  /** The tone, and a system notification when the page cannot ring out loud or is not in front, follow the ringing call. */
  #followRinging(): void {
    const ringing = ringingCall(this.#view.calls);
    const ringingId = ringing?.eventId ?? null;
    if (ringingId === this.#ringingId) return;
    if (this.#ringingId !== null) {
      this.deps.ringer.stop();
      this.deps.notifier.close(this.#ringingId).catch(() => undefined);
    }
    this.#ringingId = ringingId;
    if (!ringing) return;
    this.deps.ringer.start(DEFAULT_INCOMING_TONE);
    const isSoundBlocked = this.deps.ringer.isSoundBlocked;
    this.#update({ isSoundBlocked });
    if (isSoundBlocked || this.deps.isPageHidden?.()) {
      const script = this.script(ringing);
      this.deps.notifier.show(ringing.eventId, callerName(ringing), script.title).catch(() => undefined);
    }
  }

  #update(change: Partial<AppView>): void {
    this.#view = { ...this.#view, ...change };
    for (const listener of this.#listeners) listener(this.#view);
  }
}

/** Who is calling: the tracker project, else the agent. */
export function callerName(record: CallRecord): string {
  const project = record.issue?.projectName;
  if (record.source === "tracker") return project ?? record.payload.report.tracker?.agentName ?? "Tracker";
  return record.source === "claude-code" ? "Claude Code" : "Codex";
}
