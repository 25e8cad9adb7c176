import {
  awayScheduleOf,
  badgeCount,
  CallCenter,
  type CallRecord,
  callerName,
  DaemonAccess,
  DaemonClient,
  type DeviceInvitation,
  DispatchController,
  decideOpen,
  dispatchDaemonOf,
  FleetWatch,
  fleetList,
  inviteDevice,
  isTestCall,
  KeyRotator,
  type KeyValueStore,
  LocalSettings,
  Observable,
  type Pairing,
  PresenceController,
  type ReadableDevice,
  type Ringer,
  RingModesController,
  type RingSchedule,
  RingtoneFiles,
  RingtonesController,
  readDeviceList,
  type VoicePlatform,
} from "@ringback/client";
import { CORE_TEXTS, type InterfaceLanguage, SETTINGS_TEXTS } from "@ringback/client/texts";
import { CallAlerts } from "../audio/call-alerts.js";
import type { CallNotifier } from "../audio/call-notifications.js";
import { ComputerKey } from "../computer-settings/computer-key.js";
import { prepareImageForUpload } from "../dispatch/image-preparation.js";
import { DevicePairing } from "../pairing/device-pairing.js";
import { Preferences } from "../preferences/preferences.js";
import { rejoinPlace } from "../rejoin/rejoin-place.js";
import { RoundUpController } from "../round-up/round-up-controller.js";
import { CallReading } from "../voice/call-reading.js";
import type { SpeechInput } from "../voice/speech-input.js";
import { type AppView, initialView, type WelcomeNotice } from "./app-view.js";

export type { AppView, WelcomeNotice } from "./app-view.js";

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
  /** Opens another address in this window (`location.assign`): a new pairing link for the web app elsewhere. */
  readonly navigate: (url: string) => void;
  /** The browser's speech recognition (null where it has none), for a round-up's voice commands. */
  readonly speechInput?: () => SpeechInput | null;
  /** Shows what needs the person on the app's icon (`navigator.setAppBadge` where the browser has it). */
  readonly setBadge?: (count: number) => void;
}

/** The language a test call is read in: the interface's, as a brief's language tag. */
const TEST_CALL_LANGUAGE: Record<InterfaceLanguage, string> = { en: "en-US", zh: "zh-CN" };

/**
 * The app's one composition: the screens render its view and talk to its parts directly: `calls` (the paired
 * device's `CallCenter`: answers, replies, the calls page), the ring modes, ringtones, computer access and dispatch
 * from `@ringback/client`, and beside them the browser's: how calls are read aloud (`reading`), how the page alerts
 * (`sound`), the stored preferences, pairing and the end-to-end key. This class only wires them: it loads the
 * device's data, starts the calls once paired, and goes back to the welcome page when the device is removed.
 */
export class AppController extends Observable<AppView> {
  readonly #deps: AppDependencies;
  readonly #settings: LocalSettings;
  readonly ringModes: RingModesController;
  readonly ringtones: RingtonesController;
  readonly daemon: DaemonAccess;
  /** The idle screen's "I'm away" switch on each computer. */
  readonly presence: PresenceController;
  readonly dispatch: DispatchController;
  /** The voice platform, for settings' voice list and in-call answers read aloud. */
  readonly voicePlatform: VoicePlatform;
  readonly reading: CallReading;
  readonly sound: CallAlerts;
  readonly preferences: Preferences;
  readonly devicePairing: DevicePairing;
  readonly computerKey: ComputerKey;
  /** Removing another device replaces the account's key; this device follows replacements made elsewhere. */
  readonly keyRotator: KeyRotator;
  /** Every computer's agents, from the relay's stream, for the fleet card and the badge. */
  readonly fleet: FleetWatch;
  /** Several waiting calls read as one call: its opening, then Next, Skip and Answer. */
  readonly roundUp: RoundUpController;
  /** The calls of the paired device; none before pairing. */
  #center: CallCenter | null = null;
  #unsubscribeCenter: (() => void) | null = null;
  /** A call the user asked to open from a notification, answered once it rings here. */
  #callToOpen: string | null = null;
  #badge: number | null = null;

  constructor(deps: AppDependencies) {
    const preferredLanguages = deps.preferredLanguages ?? [];
    super(
      initialView({
        href: deps.href,
        preferredLanguages,
        isSoundBlocked: deps.ringer.isSoundBlocked,
        notificationPermission: deps.notifier.permission,
      }),
    );
    this.#deps = deps;
    const settings = new LocalSettings(deps.store);
    const changeView = (change: Partial<AppView>) => this.update(change);
    this.#settings = settings;
    this.voicePlatform = deps.voice;
    this.ringModes = new RingModesController(settings, () => {
      this.#center?.checkSchedule();
      if (this.view.pairing) this.presence.sendAwaySchedule().catch(() => undefined);
    });
    this.ringtones = new RingtonesController(settings, new RingtoneFiles(deps.store), deps.waitingRinger);
    this.keyRotator = new KeyRotator({
      settings,
      relay: () => this.calls.relay(),
      pairing: () => this.#requirePairing(),
      onKeyChanged: (pairing) => this.update({ pairing }),
      now: deps.now,
    });
    this.daemon = new DaemonAccess(settings, () => ({
      relay: this.calls.relay(),
      key: this.#requirePairing().key,
      catchUpKey: () => this.#catchUpKey(),
    }));
    this.presence = this.#newPresence();
    this.dispatch = new DispatchController({
      daemon: dispatchDaemonOf(this.daemon),
      settings,
      ringer: deps.waitingRinger,
      callWaitingSound: () => this.ringtones.sound("callWaiting"),
      prepareImage: prepareImageForUpload,
    });
    this.reading = new CallReading(deps.voice, () => this.view);
    this.fleet = new FleetWatch(() => this.#requirePairing().key);
    this.fleet.subscribe(() => this.#followBadge());
    this.roundUp = new RoundUpController({
      calls: () => this.calls,
      fleet: () => fleetList(this.fleet.view.book),
      prepareVoice: (sentences, language) =>
        deps.voice.prepare(sentences, language, this.view.voice).catch(() => null),
      playCallWaiting: () => this.sound.callWaiting(),
      voiceCommands: () => {
        if (!this.view.voice.roundUpVoiceCommands) return null;
        const input = deps.speechInput?.() ?? null;
        return input ? (language) => input.listen(language) : null;
      },
      now: deps.now,
    });
    this.sound = new CallAlerts({
      ringer: deps.ringer,
      waitingRinger: deps.waitingRinger,
      notifier: deps.notifier,
      ringtones: this.ringtones,
      rememberSoundEnabled: () => settings.setSoundEnabled(),
      isPageHidden: deps.isPageHidden,
      describe: (record) => ({ caller: this.callerName(record), title: this.reading.script(record).title }),
      changeView,
    });
    this.preferences = new Preferences({
      store: deps.store,
      settings,
      voice: deps.voice,
      daemon: this.daemon,
      preferredLanguages,
      view: () => this.view,
      changeView,
    });
    this.devicePairing = new DevicePairing({
      href: deps.href,
      userAgent: deps.userAgent,
      fetch: deps.fetch,
      onPaired: (pairing) => this.#paired(pairing),
    });
    this.computerKey = new ComputerKey({
      settings,
      daemon: this.daemon,
      relay: () => this.calls.relay(),
      pairing: () => this.#requirePairing(),
      onPairingChanged: (pairing) => this.update({ pairing }),
    });
  }

  /** The "I'm away" switches: each computer's presence, and the away hours this device's ring modes set. */
  #newPresence(): PresenceController {
    return new PresenceController({
      listComputers: () => this.daemon.refreshComputers(),
      clientFor: (computerId) =>
        new DaemonClient(this.calls.relay(), this.#requirePairing().key, computerId, () =>
          this.#catchUpKey(),
        ),
      awaySchedule: () =>
        awayScheduleOf(
          this.ringModes.view.modes,
          {
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            deviceId: this.#requirePairing().identity.deviceId,
          },
          SETTINGS_TEXTS[this.view.interfaceLanguage] ?? SETTINGS_TEXTS.en,
        ),
      ownDeviceId: () => this.view.pairing?.identity.deviceId ?? null,
    });
  }

  /** The paired device's calls; the screens that show calls are shown only then. */
  get calls(): CallCenter {
    if (!this.#center) throw new Error("This device is not paired.");
    return this.#center;
  }

  async start(): Promise<void> {
    await this.#settings.discardLegacy();
    const [pairing, preferences, hasEnabledSound] = await Promise.all([
      this.#settings.loadPairing(),
      this.preferences.load(),
      this.#settings.isSoundEnabled(),
      this.ringModes.load(),
      this.ringtones.load(),
      this.daemon.load(),
    ]);
    this.update({ ...preferences, hasEnabledSound });
    if (!pairing) {
      this.update({ phase: "welcome" });
      return;
    }
    await this.#enterReady(pairing);
  }

  stop(): void {
    this.#stopCenter();
    this.preferences.stop();
    this.dispatch.stop();
    this.sound.stop();
  }

  /** A notification was clicked: the call is answered as soon as it rings (or is missed) on this device. */
  openCall(eventId: string): void {
    this.#callToOpen = eventId;
    this.#followOpenRequest();
  }

  /** Who is calling, as the screens show it; with several watched workspaces the workspace comes first. */
  callerName(record: CallRecord): string {
    if (isTestCall(record.eventId)) return CORE_TEXTS[this.view.interfaceLanguage].testCallCaller;
    return callerName(record, this.daemon.view.watchedWorkspaces.length > 1);
  }

  /** Home's "Ring this device now": a test call rings here at once, in the interface language. */
  ringTestCall(): void {
    const t = CORE_TEXTS[this.view.interfaceLanguage];
    const words = {
      title: t.testCallTitle,
      spoken: t.testCallSpoken,
      cardTitle: t.testCallCardTitle,
      cardBody: t.testCallCardBody,
    };
    this.calls.ringTestCall(words, TEST_CALL_LANGUAGE[this.view.interfaceLanguage]);
  }

  /** Settings › Devices: a pairing link and code for another device, opening this web app. */
  async inviteDevice(): Promise<DeviceInvitation> {
    const webAppUrl = new URL(".", this.#deps.href).href;
    return inviteDevice(this.calls.relay(), this.#requirePairing(), webAppUrl);
  }

  /** The banner of a relay out of reach: ask for a new pairing link; the calls go on trying meanwhile. */
  startRejoin(): void {
    this.update({ rejoin: { link: null } });
  }

  /** Back from joining again: this device keeps its pairing. */
  cancelRejoin(): void {
    this.update({ rejoin: null });
  }

  /**
   * The new pairing link: one that opens this web app goes to the welcome page opened from it (the usual join);
   * one for the web app at another address is opened, and the page there joins. Throws for a text that is no link.
   */
  openRejoinLink(link: string): void {
    if (rejoinPlace(link, this.#deps.href) === "here") this.update({ rejoin: { link: link.trim() } });
    else this.#deps.navigate(link.trim());
  }

  /** Settings › Devices: the account's devices, each name read with this device's key (null: it does not open). */
  async listDevices(): Promise<ReadableDevice[]> {
    const { devices } = await this.calls.relay().listDevices();
    return readDeviceList(this.#requirePairing().key, devices);
  }

  /**
   * Settings › Devices: removes a device. Another device's removal replaces the account's key (`KeyRotator`):
   * resolves with how many computers took the new key at once and how many take it when they connect. Removing
   * this device leaves the account (null).
   */
  async removeDevice(device: ReadableDevice): Promise<{ moved: number; later: number } | null> {
    if (device.isCurrent) {
      await this.calls.relay().removeDevice(device.id);
      await this.deviceRemoved("removed-here");
      return null;
    }
    const moves = [...(await this.keyRotator.removeDevice(device.id)).values()];
    return {
      moved: moves.filter((move) => move === "moved").length,
      later: moves.filter((move) => move === "later").length,
    };
  }

  /** This device was removed (401 or the relay said so): back to the welcome page, history kept. */
  async deviceRemoved(notice: WelcomeNotice = "device-removed"): Promise<void> {
    this.stop();
    await this.#settings.clearPairing();
    this.#center = null;
    this.update({ phase: "welcome", pairing: null, notice, pairingLink: null, rejoin: null });
  }

  async #paired(pairing: Pairing): Promise<void> {
    // Joined again with a new link: the calls of the pairing it replaces stop trying its relay.
    this.#stopCenter();
    await this.#settings.savePairing(pairing);
    this.update({ pairingLink: null, notice: null });
    await this.#enterReady(pairing);
  }

  /** The calls stop, and what they do no longer reaches the view (the last state stays until a new center's). */
  #stopCenter(): void {
    this.#center?.stop();
    this.#unsubscribeCenter?.();
    this.#unsubscribeCenter = null;
  }

  /** Follows the account's key rotations: this device's key now when it changed, else null. */
  async #catchUpKey() {
    return (await this.keyRotator.catchUp()) ? this.#requirePairing().key : null;
  }

  #requirePairing(): Pairing {
    const pairing = this.view.pairing;
    if (!pairing) throw new Error("This device is not paired.");
    return pairing;
  }

  async #enterReady(pairing: Pairing): Promise<void> {
    const center = new CallCenter({
      store: this.#deps.store,
      pairing: () => this.#requirePairing(),
      schedule: () => this.#deps.schedule ?? this.ringModes.schedule,
      fetch: this.#deps.fetch,
      now: this.#deps.now,
      prepare: (record) => this.reading.prepare(record),
      onStep: () => this.#followCalls(),
      onSettled: (eventId) => this.sound.closeSettled(eventId),
      onDeviceRemoved: () => {
        this.deviceRemoved("device-removed").catch(() => undefined);
      },
      catchUpKey: () => this.keyRotator.catchUp(),
      onFleet: (state) => this.fleet.receive(state),
    });
    this.#center = center;
    await center.load();
    this.update({
      phase: "ready",
      pairing,
      calls: center.view.calls,
      connection: center.view.connection,
      relayUnreachableSince: null,
      rejoin: null,
      isSoundBlocked: this.#deps.ringer.isSoundBlocked,
    });
    this.#unsubscribeCenter = center.subscribe(({ calls, connection, relayUnreachableSince, unreadable }) => {
      this.update({ calls, connection, relayUnreachableSince, unreadable });
      this.#followBadge();
    });
    center.connect();
    // A removal whose key rotation the page did not finish (closed, or the relay failed) finishes now.
    this.keyRotator.finishOwedRotation().catch(() => undefined);
    this.preferences.syncBriefLanguage();
    this.daemon.refreshWatchedWorkspaces().catch(() => undefined);
  }

  /** After every step of the calls: the page's alerts, the voices kept and a call asked to open follow them. */
  #followCalls(): void {
    this.sound.followCalls(this.view.calls);
    this.roundUp.followCalls(this.view.calls);
    this.#followOpenRequest();
    this.reading.followCalls(this.view.calls);
  }

  /** The app's badge: agents that need the person and calls not yet answered; set only when it changes. */
  #followBadge(): void {
    const count = badgeCount(fleetList(this.fleet.view.book), this.view.calls);
    if (count === this.#badge) return;
    this.#badge = count;
    this.#deps.setBadge?.(count);
  }

  #followOpenRequest(): void {
    const eventId = this.#callToOpen;
    if (eventId === null || this.view.phase !== "ready") return;
    const decision = decideOpen(this.view.calls.records[eventId]);
    if (decision === "wait") return;
    this.#callToOpen = null;
    if (decision === "answer") this.calls.answer(eventId);
  }
}
