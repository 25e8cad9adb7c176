import type { PreparedVoice, VoiceOption, VoicePlatform } from "@ringback/client";
import {
  BriefLanguageSync,
  type BriefLanguageSyncState,
  type BriefScript,
  briefScript,
  CallCenter,
  type CallRecord,
  type CallsModel,
  type ConversationEntry,
  callerName,
  createAccount,
  DaemonAccess,
  DEFAULT_VOICE_SETTINGS,
  type DecisionEntry,
  type DeviceInvitation,
  DispatchController,
  decideOpen,
  defaultDeviceName,
  defaultReportLanguage,
  deviceKindOf,
  dispatchDaemonOf,
  EMPTY_CALLS_MODEL,
  hasDaemonCode,
  hasPairingFragment,
  inviteDevice,
  isDaemonUnreachable,
  joinWithCode,
  joinWithLink,
  type KeyValueStore,
  LocalSettings,
  NoComputerError,
  type Pairing,
  type QuestionChannel,
  type ReadingProblem,
  RelayClient,
  type ReportLocale,
  type Ringer,
  RingModesController,
  type RingSchedule,
  RingtoneFiles,
  RingtonesController,
  ringingCall,
  type StreamConnection,
  scriptSentences,
  type UnreadableCall,
  type VoiceSettings,
} from "@ringback/client";
import {
  type InterfaceLanguage,
  type InterfaceLanguageChoice,
  resolveInterfaceLanguage,
} from "@ringback/client/texts";
import { missedIdsInTab } from "@ringback/client/views";
import { deriveKeyFromPassphrase } from "@ringback/e2e-crypto";
import { RingbackError } from "@ringback/protocol";
import type { CallNotifier } from "../audio/call-notifications.js";
import { prepareImageForUpload } from "../dispatch/image-preparation.js";
import { VoiceSettingsStore } from "../storage/voice-settings-store.js";
import { voiceProblemOf } from "../voice/voice-problem.js";

type AppPhase = "loading" | "welcome" | "ready";

/** Why the device is on the welcome page again. */
export type WelcomeNotice = "device-removed" | "removed-here";

/** Whether the computer's end-to-end key is this device's (Settings › Encryption checks it with a relayed request). */
export type ComputerKeyCheck = "matches" | "differs" | "offline" | "no-computer";

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
  readonly ringModes: RingModesController;
  readonly ringtones: RingtonesController;
  readonly daemon: DaemonAccess;
  readonly dispatch: DispatchController;
  #briefLanguage: BriefLanguageSync | null = null;
  readonly #prepared = new Map<string, { script: BriefScript; voice: PreparedVoice }>();
  /** The calls of the paired device; none before pairing. */
  #center: CallCenter | null = null;
  #ringingId: string | null = null;
  /** A call the user asked to open from a notification, answered once it rings here. */
  #callToOpen: string | null = null;

  constructor(private readonly deps: AppDependencies) {
    this.#settings = new LocalSettings(deps.store);
    this.#voiceSettings = new VoiceSettingsStore(deps.store);
    this.ringModes = new RingModesController(this.#settings, () => this.#center?.checkSchedule());
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
    this.#center?.stop();
    this.#briefLanguage?.stop();
    this.deps.ringer.stop();
    this.dispatch.stop();
    this.deps.waitingRinger.stop();
  }

  /** Settles when every record change so far is on the device. */
  persisted(): Promise<void> {
    return this.#center?.persisted() ?? Promise.resolve();
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
    this.#center?.answer(eventId);
  }

  reject(eventId: string): void {
    this.#center?.reject(eventId);
  }

  hangUp(eventId: string): void {
    this.#center?.hangUp(eventId);
    this.#prepared.delete(eventId);
  }

  /** A notification was clicked: the call is answered as soon as it rings (or is missed) on this device. */
  openCall(eventId: string): void {
    this.#callToOpen = eventId;
    this.#followOpenRequest();
  }

  /** "Later" on the call's notification: it stops ringing here and waits among the missed calls. */
  setCallAside(eventId: string): void {
    this.#center?.setAside(eventId);
  }

  ringShown(eventId: string): void {
    this.#center?.ringShown(eventId);
  }

  retry(eventId: string): void {
    this.#center?.retry(eventId);
  }

  ignore(eventId: string): void {
    this.#center?.ignore(eventId);
  }

  /** Acknowledge-all: the missed calls of the calls page's current tab. */
  acknowledgeAll(tab: string): void {
    this.#center?.acknowledgeAll(missedIdsInTab(Object.values(this.#view.calls.records), tab));
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

  /** The calls page on open: the calls' tracker issues as their computers see them now. */
  async refreshIssues(): Promise<void> {
    await this.#requireCenter().refreshIssues();
  }

  // Settings ---------------------------------------------------------------------------------------------------

  client(): RelayClient {
    return this.#requireCenter().relay();
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
    this.#requireCenter().changeContent(eventId, change);
    await this.persisted();
  }

  /** A reply after hang-up, sealed for the computer that reported the call; its delivery status follows. */
  async sendReply(eventId: string, text: string): Promise<void> {
    await this.#requireCenter().sendReply(eventId, text);
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
    this.#center = null;
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

  #requireCenter(): CallCenter {
    if (!this.#center) throw new Error("This device is not paired.");
    return this.#center;
  }

  async #enterReady(pairing: Pairing): Promise<void> {
    const center = new CallCenter({
      store: this.deps.store,
      pairing: () => this.#requirePairing(),
      schedule: () => this.deps.schedule ?? this.ringModes.schedule,
      fetch: this.deps.fetch,
      now: this.deps.now,
      prepare: (record) => this.#prepareVoice(record),
      onStep: () => {
        this.#followRinging();
        this.#followOpenRequest();
      },
      onSettled: (eventId) => this.#closeSettledNotification(eventId),
      onDeviceRemoved: () => {
        this.deviceRemoved("device-removed").catch(() => undefined);
      },
    });
    this.#center = center;
    await center.load();
    this.#update({
      phase: "ready",
      pairing,
      calls: center.view.calls,
      isSoundBlocked: this.deps.ringer.isSoundBlocked,
    });
    center.subscribe(({ calls, connection, unreadable }) => this.#update({ calls, connection, unreadable }));
    center.connect();
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

  /**
   * The call was answered, rejected, acknowledged, ended or expired (here or on another device): a notification the
   * service worker showed for it while the app was closed goes too. The relay pushes no more once a call is settled,
   * so the page's stream is what tells this device.
   */
  #closeSettledNotification(eventId: string): void {
    this.deps.notifier.close(eventId).catch(() => undefined);
  }

  #followOpenRequest(): void {
    const eventId = this.#callToOpen;
    if (eventId === null || this.#view.phase !== "ready") return;
    const decision = decideOpen(this.#view.calls.records[eventId]);
    if (decision === "wait") return;
    this.#callToOpen = null;
    if (decision === "answer") this.answer(eventId);
  }

  /** The voice is prepared before the call rings; null when ready, else why it cannot read aloud. */
  async #prepareVoice(record: CallRecord): Promise<ReadingProblem | null> {
    const script = briefScript(record.payload, { formOfAddress: this.#view.formOfAddress });
    try {
      const voice = await this.deps.voice.prepare(scriptSentences(script), script.language, this.#view.voice);
      this.#prepared.set(record.eventId, { script, voice });
      return null;
    } catch (error) {
      return voiceProblemOf(error);
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
