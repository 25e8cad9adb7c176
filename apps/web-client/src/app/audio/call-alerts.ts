import {
  type CallRecord,
  type CallsModel,
  type Ringer,
  type RingtoneItem,
  type RingtonesController,
  ringingCall,
  ringtoneItemOf,
} from "@ringback/client";
import type { ChangeView } from "../controller/app-view.js";
import type { CallNotifier } from "./call-notifications.js";

export interface CallAlertsOptions {
  readonly ringer: Ringer;
  /** The dispatch's call-waiting tone and ringtone previews: unlocked with the ringer. */
  readonly waitingRinger: Ringer;
  readonly notifier: CallNotifier;
  /** The ringtones chosen for incoming and "needs you" calls, read as a call starts ringing. */
  readonly ringtones: Pick<RingtonesController, "sound">;
  /** Keeps the "enable sound" gesture for the next visits. */
  readonly rememberSoundEnabled: () => Promise<void>;
  readonly isPageHidden?: () => boolean;
  /** Who is calling and the call's title, for its notification. */
  readonly describe: (record: CallRecord) => { readonly caller: string; readonly title: string };
  readonly changeView: ChangeView;
}

/** How long the call-waiting tone plays when a call joins a round-up: the default tone's one beep, not a ring. */
const CALL_WAITING_TONE_PLAYED_MS = 1_500;

/**
 * How this page alerts the person to calls: the ringtone follows the ringing call, with a system notification when
 * the page cannot ring out loud or is not in front; the browser's sound is unlocked by the person's gestures.
 */
export class CallAlerts {
  readonly #options: CallAlertsOptions;
  #ringingId: string | null = null;
  /** The ringing call's tone: a "needs you" call rings its own. */
  #ringingItem: RingtoneItem = "incoming";
  #callWaitingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: CallAlertsOptions) {
    this.#options = options;
  }

  /** After each step of the calls: the tone and notification follow the ringing call. */
  followCalls(calls: CallsModel): void {
    const { ringer, notifier } = this.#options;
    const ringing = ringingCall(calls);
    const ringingId = ringing?.eventId ?? null;
    if (ringingId === this.#ringingId) return;
    if (this.#ringingId !== null) {
      ringer.stop();
      notifier.close(this.#ringingId).catch(() => undefined);
    }
    this.#ringingId = ringingId;
    if (!ringing) return;
    this.#ringingItem = ringtoneItemOf(ringing);
    ringer.start(this.#options.ringtones.sound(this.#ringingItem));
    const isSoundBlocked = ringer.isSoundBlocked;
    this.#options.changeView({ isSoundBlocked });
    if (isSoundBlocked || this.#options.isPageHidden?.()) {
      const { caller, title } = this.#options.describe(ringing);
      notifier.show(ringing.eventId, caller, title).catch(() => undefined);
    }
  }

  /**
   * The call was answered, rejected, acknowledged, ended or expired (here or on another device): a notification the
   * service worker showed for it while the app was closed goes too. The relay pushes no more once a call is settled,
   * so the page's stream is what tells this device.
   */
  closeSettled(eventId: string): void {
    this.#options.notifier.close(eventId).catch(() => undefined);
  }

  /** A call joined a round-up in progress: the call-waiting tone, for as long as one cadence of it. */
  callWaiting(): void {
    const { waitingRinger, ringtones } = this.#options;
    waitingRinger.start(ringtones.sound("callWaiting"));
    clearTimeout(this.#callWaitingTimer);
    this.#callWaitingTimer = setTimeout(() => waitingRinger.stop(), CALL_WAITING_TONE_PLAYED_MS);
  }

  /** Any tap or key on the page: browsers allow sound from then on, so a later call rings out loud. */
  async unlock(): Promise<void> {
    const { ringer, waitingRinger } = this.#options;
    await ringer.unlock();
    this.#options.changeView({ isSoundBlocked: ringer.isSoundBlocked });
    await waitingRinger.unlock();
    if (this.#ringingId !== null && !ringer.isSoundBlocked)
      ringer.start(this.#options.ringtones.sound(this.#ringingItem));
  }

  /** The first-visit "enable sound" gesture: unlocks audio for this page and asks for notifications. */
  async enable(): Promise<void> {
    const { ringer, waitingRinger, notifier } = this.#options;
    await ringer.unlock();
    await waitingRinger.unlock();
    await this.#options.rememberSoundEnabled();
    await notifier.requestPermission();
    this.#options.changeView({
      isSoundBlocked: ringer.isSoundBlocked,
      notificationPermission: notifier.permission,
    });
    // A call already ringing silently starts sounding now.
    if (this.#ringingId !== null) ringer.start(this.#options.ringtones.sound(this.#ringingItem));
  }

  stop(): void {
    this.#options.ringer.stop();
    this.#options.waitingRinger.stop();
  }
}
