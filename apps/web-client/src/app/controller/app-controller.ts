import type { KeyValueStore, ReportLocale, Ringer, RingSchedule } from "@ringback/client";
import {
  applyIssueRefresh,
  BriefLanguageSync,
  type BriefLanguageSyncState,
  type CallAction,
  type CallEffect,
  type CallRecord,
  CallRecordsStore,
  CallStream,
  type CallsModel,
  type ConversationEntry,
  createAccount,
  DaemonAccess,
  DaemonClient,
  type DecisionEntry,
  DeliveryReporter,
  type DeliveryReportOutcome,
  type DeviceInvitation,
  decideOpen,
  defaultDeviceName,
  defaultReportLanguage,
  deliveryFromStatus,
  deviceKindOf,
  dispatchDaemonOf,
  EMPTY_CALLS_MODEL,
  hasDaemonCode,
  hasPairingFragment,
  type InterfaceLanguage,
  type InterfaceLanguageChoice,
  inviteDevice,
  isDaemonUnreachable,
  issueRefreshBatches,
  joinWithCode,
  joinWithLink,
  LocalSettings,
  laterDelivery,
  loadAnsweredIds,
  missedIdsInTab,
  NoComputerError,
  newReplyId,
  OpenCallError,
  type OpenCallProblem,
  openRelayedEvent,
  type Pairing,
  pendingDeliveryReports,
  type QuestionChannel,
  RelayClient,
  type ReplyDelivery,
  RingModesController,
  RingtoneFiles,
  RingtonesController,
  reduceCalls,
  resolveInterfaceLanguage,
  ringingCall,
  type StatusWriteOutcome,
  StatusWriter,
  type StreamConnection,
  saveAnsweredIds,
  sealReply,
  withAnswer,
  withDelivery,
  withDeliveryReport,
  withStatus,
} from "@ringback/client";
import { deriveKeyFromPassphrase } from "@ringback/e2e-crypto";
import {
  type CallStatusChange,
  type CallStatusWrite,
  type DeviceDeliveryOutcome,
  type IssueRefresh,
  type RelayedEvent,
  type ReplyStatusChange,
  RingbackError,
} from "@ringback/protocol";
import type { CallNotifier } from "../audio/call-notifications.js";
import { DispatchController } from "../dispatch/dispatch-controller.js";
import { prepareImageForUpload } from "../dispatch/image-preparation.js";
import { VoiceSettingsStore } from "../storage/voice-settings-store.js";
import { type BriefScript, briefScript, scriptSentences } from "../voice/brief-script.js";
import type { PreparedVoice, VoiceOption, VoicePlatform } from "../voice/voice-platform.js";
import { voiceProblemOf } from "../voice/voice-problem.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from "../voice/voice-settings.js";

/** How often the ring schedule is evaluated for "a non-ringing period begins before answer". */
export const SCHEDULE_CHECK_MS = 15_000;

export type AppPhase = "loading" | "welcome" | "ready";

/** Why the device is on the welcome page again. */
export type WelcomeNotice = "device-removed" | "removed-here";

/** Whether the computer's end-to-end key is this device's (Settings › Encryption checks it with a relayed request). */
export type ComputerKeyCheck = "matches" | "differs" | "offline" | "no-computer";

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
  readonly notice: WelcomeNotice | null;
  readonly interfaceLanguageChoice: InterfaceLanguageChoice;
  /** The interface's texts: the choice, or the system's language when it follows the system. */
  readonly interfaceLanguage: InterfaceLanguage;
  /** The report language chosen in the app; null when it follows the system. */
  readonly reportLanguageChoice: ReportLocale | null;
  /** The report language in effect: the choice, or the system's default. */
  readonly reportLanguage: string;
  readonly briefLanguageSync: BriefLanguageSyncState;
  /** This device's own language model for in-call questions. */
  readonly questionChannel: QuestionChannel | null;
}

export interface AppDependencies {
  readonly store: KeyValueStore;
  readonly voice: VoicePlatform;
  readonly ringer: Ringer;
  /** Plays the call-waiting tone of a dispatch and ringtone previews; apart from the incoming-call ringer. */
  readonly waitingRinger: Ringer;
  readonly notifier: CallNotifier;
  /** Overrides the ring modes (tests of the call lifecycle). */
  readonly schedule?: RingSchedule;
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
  /** The page's address (`location.href`), read for a pairing link, and the web app's address for new links. */
  readonly href: string;
  readonly userAgent: string;
  /** `navigator.languages`: the interface and report languages follow it by default. */
  readonly preferredLanguages?: readonly string[];
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
  readonly #voiceSettings: VoiceSettingsStore;
  readonly #records: CallRecordsStore;
  readonly ringModes: RingModesController;
  readonly ringtones: RingtonesController;
  readonly daemon: DaemonAccess;
  readonly dispatch: DispatchController;
  #briefLanguage: BriefLanguageSync | null = null;
  readonly #prepared = new Map<string, { script: BriefScript; voice: PreparedVoice }>();
  #stream: CallStream | null = null;
  #writer: StatusWriter | null = null;
  #deliveryReporter: DeliveryReporter | null = null;
  #scheduleTimer: ReturnType<typeof setInterval> | undefined;
  #persisting: Promise<void> = Promise.resolve();
  #ringingId: string | null = null;
  /** A call the user asked to open from a notification, answered once it rings here. */
  #callToOpen: string | null = null;

  constructor(private readonly deps: AppDependencies) {
    this.#settings = new LocalSettings(deps.store);
    this.#voiceSettings = new VoiceSettingsStore(deps.store);
    this.#records = new CallRecordsStore(deps.store);
    this.ringModes = new RingModesController(this.#settings, () =>
      this.#dispatch({ type: "schedule-check" }),
    );
    this.ringtones = new RingtonesController(
      this.#settings,
      new RingtoneFiles(deps.store),
      deps.waitingRinger,
    );
    this.daemon = new DaemonAccess(this.#settings, () => ({
      relay: this.client(),
      key: this.#requirePairing().key,
    }));
    this.dispatch = new DispatchController({
      daemon: dispatchDaemonOf(this.daemon),
      settings: this.#settings,
      ringer: deps.waitingRinger,
      callWaitingSound: () => this.ringtones.sound("callWaiting"),
      prepareImage: prepareImageForUpload,
    });
    const preferred = deps.preferredLanguages ?? [];
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
      interfaceLanguageChoice: "system",
      interfaceLanguage: resolveInterfaceLanguage("system", preferred),
      reportLanguageChoice: null,
      reportLanguage: defaultReportLanguage(preferred),
      briefLanguageSync: { status: "idle" },
      questionChannel: null,
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
    const [pairing, voice, formOfAddress, hasEnabledSound, interfaceChoice, reportChoice, questionChannel] =
      await Promise.all([
        this.#settings.loadPairing(),
        this.#voiceSettings.loadVoice(),
        this.#settings.loadFormOfAddress(),
        this.#settings.isSoundEnabled(),
        this.#settings.loadInterfaceLanguage(),
        this.#settings.loadReportLanguage(),
        this.#settings.loadQuestionChannel(),
        this.ringModes.load(),
        this.ringtones.load(),
        this.daemon.load(),
      ]);
    this.#update({
      voice,
      formOfAddress,
      hasEnabledSound,
      questionChannel,
      interfaceLanguageChoice: interfaceChoice,
      interfaceLanguage: resolveInterfaceLanguage(interfaceChoice, this.deps.preferredLanguages ?? []),
      reportLanguageChoice: reportChoice,
      reportLanguage: reportChoice ?? defaultReportLanguage(this.deps.preferredLanguages ?? []),
    });
    if (!pairing) {
      this.#update({ phase: "welcome" });
      return;
    }
    await this.#enterReady(pairing);
  }

  stop(): void {
    this.#stream?.close();
    this.#writer?.stop();
    this.#deliveryReporter?.stop();
    this.#briefLanguage?.stop();
    clearInterval(this.#scheduleTimer);
    this.deps.ringer.stop();
    this.dispatch.stop();
    this.deps.waitingRinger.stop();
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

  /** A notification was clicked: the call is answered as soon as it rings (or is missed) on this device. */
  openCall(eventId: string): void {
    this.#callToOpen = eventId;
    this.#followOpenRequest();
  }

  /** "Later" on the call's notification: it stops ringing here and waits among the missed calls. */
  setCallAside(eventId: string): void {
    this.#dispatch({ type: "set-aside", eventId });
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
    const byComputer = new Map<string, CallRecord[]>();
    for (const record of Object.values(this.#view.calls.records)) {
      if (!record.issue || !record.fromDeviceId) continue;
      byComputer.set(record.fromDeviceId, [...(byComputer.get(record.fromDeviceId) ?? []), record]);
    }
    const refreshes: IssueRefresh[] = [];
    for (const [computerId, records] of byComputer) {
      const daemon = new DaemonClient(this.client(), pairing.key, computerId);
      try {
        for (const issues of issueRefreshBatches(records))
          refreshes.push(...(await daemon.refreshIssues(issues)).issues);
      } catch {
        // Offline, timed out, not set up or another key: the calls keep the values they have.
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

  listVoices(settings: VoiceSettings = this.#view.voice): Promise<VoiceOption[]> {
    return this.deps.voice.listVoices(settings);
  }

  /** Settings › Voice: reads a sentence with the chosen voice and speed, in the report language. */
  async sampleVoice(text: string): Promise<void> {
    const language = this.#view.reportLanguage;
    const voice = await this.deps.voice.prepare([text], language, this.#view.voice);
    await voice.speak(text);
  }

  /** The voice platform, for in-call answers read aloud. */
  get voicePlatform(): VoicePlatform {
    return this.deps.voice;
  }

  async saveVoice(voice: VoiceSettings): Promise<void> {
    await this.#voiceSettings.saveVoice(voice);
    this.#update({ voice: await this.#voiceSettings.loadVoice() });
  }

  async saveFormOfAddress(value: string): Promise<void> {
    await this.#settings.saveFormOfAddress(value);
    this.#update({ formOfAddress: await this.#settings.loadFormOfAddress() });
  }

  async setInterfaceLanguage(choice: InterfaceLanguageChoice): Promise<void> {
    await this.#settings.saveInterfaceLanguage(choice);
    this.#update({
      interfaceLanguageChoice: choice,
      interfaceLanguage: resolveInterfaceLanguage(choice, this.deps.preferredLanguages ?? []),
    });
  }

  /** Settings › Report language: saved here, then sent to the daemon (`PUT /brief/language`). Null follows the system. */
  async setReportLanguage(choice: ReportLocale | null): Promise<void> {
    await this.#settings.saveReportLanguage(choice);
    const reportLanguage = choice ?? defaultReportLanguage(this.deps.preferredLanguages ?? []);
    this.#update({ reportLanguageChoice: choice, reportLanguage });
    await this.#briefLanguage?.send(reportLanguage);
  }

  async saveQuestionChannel(channel: QuestionChannel | null): Promise<void> {
    await this.#settings.saveQuestionChannel(channel);
    this.#update({ questionChannel: channel });
  }

  /**
   * Settings › Encryption: this device's key becomes the one derived from the phrase (the phrase is not kept). The
   * computer's key cannot be replaced from here (the relay refuses `/e2e/*` with 403 `not_relayed`), so the user
   * sets the same phrase on the computer; the answer says whether the computer already has it.
   */
  async changeKey(phrase: string): Promise<ComputerKeyCheck> {
    const key = await deriveKeyFromPassphrase(phrase);
    const pairing = { ...this.#requirePairing(), key };
    await this.#settings.saveKey(key);
    this.#update({ pairing });
    return this.checkComputerKey();
  }

  /** Asks the computer something harmless through the relay: another key gives 400 `undecryptable_request`. */
  async checkComputerKey(): Promise<ComputerKeyCheck> {
    try {
      await (await this.daemon.client()).briefLanguage();
      return "matches";
    } catch (error) {
      if (error instanceof NoComputerError) return "no-computer";
      if (hasDaemonCode(error, "undecryptable_request")) return "differs";
      if (isDaemonUnreachable(error)) return "offline";
      return "matches";
    }
  }

  /** Who is calling, as the screens show it; with several watched workspaces the workspace comes first. */
  callerName(record: CallRecord): string {
    return callerName(record, this.daemon.view.watchedWorkspaces.length > 1);
  }

  // Conversation and replies -----------------------------------------------------------------------------------

  /** Keeps the in-call conversation and decisions in the call record. */
  async saveConversation(
    eventId: string,
    change: { conversation: ConversationEntry[]; decisions: DecisionEntry[] },
  ): Promise<void> {
    this.#changeContent(eventId, change);
    await this.#persisting;
  }

  /**
   * A reply after hang-up: sealed for the computer that reported the call and sent through the relay; its delivery
   * status then arrives on the stream and shows in the call's history record.
   */
  async sendReply(eventId: string, text: string): Promise<void> {
    const record = this.#view.calls.records[eventId];
    if (!record) throw new Error("This call is no longer on this device.");
    const replyId = newReplyId();
    const request = await sealReply(this.#requirePairing().key, eventId, replyId, text);
    const accepted = await this.client().sendReply(eventId, request);
    const sentAt = (this.deps.now?.() ?? new Date()).toISOString();
    const current = this.#view.calls.records[eventId] ?? record;
    this.#changeContent(eventId, { replies: [...current.replies, { replyId, text, sentAt }] });
    this.#setDelivery(eventId, replyId, { status: accepted.status, reason: null, at: sentAt });
    await this.#persisting;
  }

  /** Any tap or key on the page: browsers allow sound from then on, so a later call rings out loud. */
  async unlockSound(): Promise<void> {
    await this.deps.ringer.unlock();
    this.#update({ isSoundBlocked: this.deps.ringer.isSoundBlocked });
    await this.deps.waitingRinger.unlock();
    if (this.#ringingId !== null && !this.deps.ringer.isSoundBlocked)
      this.deps.ringer.start(this.ringtones.sound("incoming"));
  }

  /** The first-visit "enable sound" gesture: unlocks audio for this page and asks for notifications. */
  async enableSound(): Promise<void> {
    await this.deps.ringer.unlock();
    await this.deps.waitingRinger.unlock();
    await this.#settings.setSoundEnabled();
    await this.deps.notifier.requestPermission();
    this.#update({
      isSoundBlocked: this.deps.ringer.isSoundBlocked,
      notificationPermission: this.deps.notifier.permission,
    });
    // A call already ringing silently starts sounding now.
    if (this.#ringingId !== null) this.deps.ringer.start(this.ringtones.sound("incoming"));
  }

  /** This device was removed (401 or the relay said so): back to the welcome page, history kept. */
  async deviceRemoved(notice: WelcomeNotice = "device-removed"): Promise<void> {
    this.stop();
    await this.#settings.clearPairing();
    this.#stream = null;
    this.#writer = null;
    this.#deliveryReporter = null;
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
    this.#deliveryReporter = new DeliveryReporter(
      (eventId, outcome) => client.reportDelivery(eventId, outcome),
      (eventId, outcome, result) => this.#onDeliveryReported(eventId, outcome, result),
    );
    this.#stream = new CallStream({
      serverUrl: pairing.identity.serverUrl,
      deviceToken: pairing.identity.deviceToken,
      lastEventId,
      fetch: this.deps.fetch,
      handlers: {
        onCall: (event) => this.#onCall(event),
        onReplyStatus: (change) => this.#onReplyStatus(change),
        onCallStatus: (change) => this.#onCallStatus(change),
        onCallDelivery: (delivery) =>
          this.#changeStatus(delivery.eventId, (record) =>
            withDelivery(record, delivery, this.#thisDeviceId),
          ),
        onSynced: ({ resumedFrom, backlogEventIds }) => {
          // Without a resume id the relay sent every call still open: any other open call here ended elsewhere.
          if (resumedFrom === null) this.#dispatch({ type: "pending-calls", eventIds: backlogEventIds });
        },
        onLastEventId: (id) => this.#settings.saveLastEventId(id),
        onConnection: (connection) => {
          this.#update({ connection });
          if (connection !== "open") return;
          this.#writer?.flush().catch(() => undefined);
          this.#reportPendingDeliveries();
        },
        onDeviceRemoved: () => {
          this.deviceRemoved("device-removed").catch(() => undefined);
        },
      },
    });
    this.#stream.start();
    // "A non-ringing period begins before answer": checked often enough that a ringing call stops near the minute.
    this.#scheduleTimer = setInterval(() => this.#dispatch({ type: "schedule-check" }), SCHEDULE_CHECK_MS);
    this.#briefLanguage = new BriefLanguageSync(
      (language) => this.#putBriefLanguage(language),
      (briefLanguageSync) => this.#update({ briefLanguageSync }),
    );
    // At start: the daemon writes briefs in the app's report language.
    this.#briefLanguage.send(this.#view.reportLanguage).catch(() => undefined);
    this.daemon.refreshWatchedWorkspaces().catch(() => undefined);
  }

  async #putBriefLanguage(language: string): Promise<void> {
    try {
      await (await this.daemon.client()).putBriefLanguage(language);
    } catch (error) {
      // No computer has joined yet: wait for one as for a computer that is offline.
      if (error instanceof NoComputerError) throw new RingbackError("computer_offline", error.message);
      throw error;
    }
  }

  async #onCall(event: RelayedEvent): Promise<void> {
    const existing = this.#view.calls.records[event.eventId];
    let payload = existing?.payload;
    if (!payload) {
      try {
        // The key now, not at connect time: Settings › Encryption may have replaced it.
        payload = await openRelayedEvent(this.#requirePairing().key, event);
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
      this.#closeSettledNotification(event.eventId);
    }
  }

  #onCallStatus(change: CallStatusChange): void {
    this.#dispatch({
      type: "remote-status",
      eventId: change.eventId,
      status: change.status,
      deviceId: change.deviceId,
    });
    // Who answered, for the history's delivery line (own answers too: the relay's time is the one all devices see).
    this.#changeStatus(change.eventId, (record) => withAnswer(record, change));
    this.#closeSettledNotification(change.eventId);
  }

  /**
   * The call was answered, rejected, acknowledged, ended or expired (here or on another device): a notification the
   * service worker showed for it while the app was closed goes too. The relay pushes no more once a call is settled,
   * so the page's stream is what tells this device.
   */
  #closeSettledNotification(eventId: string): void {
    this.deps.notifier.close(eventId).catch(() => undefined);
  }

  async #onReplyStatus(change: ReplyStatusChange): Promise<void> {
    if (!this.#view.calls.records[change.eventId]) return;
    const delivery = await deliveryFromStatus(this.#requirePairing().key, change);
    this.#setDelivery(change.eventId, change.replyId, delivery);
  }

  /** A reply's delivery status: merged only into the call's status fields. */
  #setDelivery(eventId: string, replyId: string, delivery: ReplyDelivery): void {
    this.#changeStatus(eventId, (record) =>
      withStatus(record, {
        replyDeliveries: {
          ...record.status.replyDeliveries,
          [replyId]: laterDelivery(record.status.replyDeliveries[replyId], delivery),
        },
      }),
    );
  }

  /** A change of a call's status fields outside the reducer; a call this device has no record of is left alone. */
  #changeStatus(eventId: string, change: (record: CallRecord) => CallRecord): void {
    const record = this.#view.calls.records[eventId];
    if (!record) return;
    const updated = change(record);
    if (updated === record) return;
    const before = this.#view.calls;
    const calls = { ...before, records: { ...before.records, [eventId]: updated } };
    this.#persist(before, calls);
    this.#update({ calls });
  }

  get #thisDeviceId(): string {
    return this.#view.pairing?.identity.deviceId ?? "";
  }

  /** Outcomes this device has not got to the relay yet (offline, or before a restart) are sent on every connect. */
  #reportPendingDeliveries(): void {
    const reports = Object.values(this.#view.calls.records).flatMap((record) =>
      pendingDeliveryReports(record).map((outcome) => ({ eventId: record.eventId, outcome })),
    );
    if (reports.length > 0) this.#deliveryReporter?.reportAll(reports).catch(() => undefined);
  }

  #onDeliveryReported(eventId: string, outcome: DeviceDeliveryOutcome, result: DeliveryReportOutcome): void {
    if (result.kind === "device-removed") {
      this.deviceRemoved("device-removed").catch(() => undefined);
      return;
    }
    this.#changeStatus(eventId, (record) =>
      result.kind === "reported"
        ? withDeliveryReport(withDelivery(record, result.delivery, this.#thisDeviceId), outcome, "reported")
        : withDeliveryReport(record, outcome, "abandoned"),
    );
  }

  /** What the user said about a call: merged into the stored record's content, its status left as stored. */
  #changeContent(
    eventId: string,
    change: Partial<Pick<CallRecord, "conversation" | "decisions" | "replies">>,
  ): void {
    const record = this.#view.calls.records[eventId];
    if (!record) return;
    const calls = {
      ...this.#view.calls,
      records: { ...this.#view.calls.records, [eventId]: { ...record, ...change } },
    };
    this.#update({ calls });
    this.#persisting = this.#persisting
      .then(async () => {
        const { evicted } = await this.#records.saveContent(eventId, change);
        if (evicted.length > 0) this.#forget(evicted);
      })
      .catch((error: unknown) => console.error("Could not save call records.", error));
  }

  #dispatch(action: CallAction): void {
    const before = this.#view.calls;
    const transition = reduceCalls(before, action, {
      now: this.deps.now?.() ?? new Date(),
      schedule: this.deps.schedule ?? this.ringModes.schedule,
      deviceId: this.#view.pairing?.identity.deviceId ?? "",
    });
    if (transition.model === before) return;
    this.#persist(before, transition.model);
    this.#update({ calls: transition.model });
    for (const effect of transition.effects) this.#run(effect);
    this.#followRinging();
    this.#followOpenRequest();
  }

  #followOpenRequest(): void {
    const eventId = this.#callToOpen;
    if (eventId === null || this.#view.phase !== "ready") return;
    const decision = decideOpen(this.#view.calls.records[eventId]);
    if (decision === "wait") return;
    this.#callToOpen = null;
    if (decision === "answer") this.answer(eventId);
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
      case "report-delivery":
        this.#deliveryReporter?.report(effect.eventId, effect.outcome).catch(() => undefined);
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
      this.#dispatch({ type: "voice-failed", eventId, reason: voiceProblemOf(error) });
    }
  }

  #onStatusWritten(eventId: string, status: CallStatusWrite, outcome: StatusWriteOutcome): void {
    if (outcome.kind === "device-removed") {
      this.deviceRemoved("device-removed").catch(() => undefined);
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
    this.deps.ringer.start(this.ringtones.sound("incoming"));
    const isSoundBlocked = this.deps.ringer.isSoundBlocked;
    this.#update({ isSoundBlocked });
    if (isSoundBlocked || this.deps.isPageHidden?.()) {
      const script = this.script(ringing);
      this.deps.notifier.show(ringing.eventId, this.callerName(ringing), script.title).catch(() => undefined);
    }
  }

  #update(change: Partial<AppView>): void {
    this.#view = { ...this.#view, ...change };
    for (const listener of this.#listeners) listener(this.#view);
  }
}

/**
 * Who is calling: the tracker project (after its workspace when several workspaces are watched), else the agent.
 */
export function callerName(record: CallRecord, isWorkspaceShown = false): string {
  const project = record.issue?.projectName;
  if (record.source === "tracker") {
    const name = project ?? record.payload.report.tracker?.agentName ?? "Tracker";
    const workspace = record.issue?.workspaceName ?? record.issue?.workspaceId;
    return isWorkspaceShown && workspace ? `${workspace} / ${name}` : name;
  }
  return record.source === "claude-code" ? "Claude Code" : "Codex";
}
