import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import { DeviceCredentials, LlmChannel } from "@ringback/protocol";
import { z } from "zod";
import { type InterfaceLanguageChoice, isInterfaceLanguageChoice } from "../i18n/interface-language.js";
import { isReportLocale, type ReportLocale } from "../report-language/locales.js";
import type { RingMode } from "../ring-schedule/ring-mode.js";
import { readStoredModes } from "../ring-schedule/stored-modes.js";
import { type RingtoneChoices, readRingtoneChoices } from "../ringtones/ringtone-items.js";
import type { KeyValueStore } from "./key-value.js";
import {
  COMPUTER_KEY,
  DISPATCH_LAST_USED_KEY,
  E2E_KEY_KEY,
  FORM_OF_ADDRESS_KEY,
  IDENTITY_KEY,
  INTERFACE_LANGUAGE_KEY,
  KEY_ROTATION_OWED_KEY,
  LAST_EVENT_ID_KEY,
  LEGACY_KEYS,
  QUESTION_CHANNEL_KEY,
  REPORT_LANGUAGE_KEY,
  RING_MODES_KEY,
  RINGTONE_CHOICES_KEY,
  SOUND_ENABLED_KEY,
  WATCHED_WORKSPACES_KEY,
} from "./storage-keys.js";

/** Who this device is: the relay's address and the credentials it issued. Stored only on the device. */
export const DeviceIdentity = DeviceCredentials.extend({
  serverUrl: z.string().min(1),
  /**
   * When this device joined the account (ISO time, its own clock): a call raised before it was meant for the
   * devices there then, and does not ring here. Absent on devices paired before it was kept.
   */
  joinedAt: z.string().optional(),
  /**
   * The name this device joined with. The relay lists it sealed; kept here to seal it again when the key changes and
   * to name this device in its decisions. Absent on devices paired before it was kept.
   */
  deviceName: z.string().optional(),
});
export type DeviceIdentity = z.infer<typeof DeviceIdentity>;

/** What a paired device needs to receive calls: its identity and the end-to-end key. */
export interface Pairing {
  readonly identity: DeviceIdentity;
  readonly key: E2eKey;
}

/** This device's own language-model channel, for in-call questions (streaming chat completions). */
export const QuestionChannel = LlmChannel.pick({ baseUrl: true, apiKey: true, model: true });
export type QuestionChannel = z.infer<typeof QuestionChannel>;

/** The project and agent of the last dispatch (and its workspace, when several are watched). */
export const DispatchLastUsed = z.object({
  workspaceId: z.string().nullable(),
  projectId: z.string().nullable(),
  agentId: z.string().nullable(),
});
export type DispatchLastUsed = z.infer<typeof DispatchLastUsed>;

/** The device's local settings (the spec's "Local settings" record), in IndexedDB. There is no login. */
export class LocalSettings {
  constructor(private readonly store: KeyValueStore) {}

  /** An old shared secret stored by older versions is discarded. */
  async discardLegacy(): Promise<void> {
    for (const key of LEGACY_KEYS) await this.store.delete(key);
  }

  /** The pairing, or null when the device has none (or only half of one): the welcome page then. */
  async loadPairing(): Promise<Pairing | null> {
    const identity = DeviceIdentity.safeParse(await this.store.get(IDENTITY_KEY));
    const keyText = await this.store.get<unknown>(E2E_KEY_KEY);
    if (!identity.success || typeof keyText !== "string") return null;
    try {
      return { identity: identity.data, key: parseKey(keyText) };
    } catch {
      return null;
    }
  }

  async savePairing(pairing: Pairing): Promise<void> {
    await this.store.set(E2E_KEY_KEY, pairing.key);
    await this.store.set(IDENTITY_KEY, pairing.identity);
    await this.store.delete(LAST_EVENT_ID_KEY);
  }

  /** A new end-to-end key for this device (Settings › Encryption); the identity and stream position stay. */
  async saveKey(key: E2eKey): Promise<void> {
    await this.store.set(E2E_KEY_KEY, key);
  }

  /** The removed device whose key rotation is not yet at the relay; null when none is owed. */
  async loadKeyRotationOwed(): Promise<string | null> {
    const value = await this.store.get<unknown>(KEY_ROTATION_OWED_KEY);
    return typeof value === "string" ? value : null;
  }

  async saveKeyRotationOwed(removedDeviceId: string | null): Promise<void> {
    if (removedDeviceId === null) await this.store.delete(KEY_ROTATION_OWED_KEY);
    else await this.store.set(KEY_ROTATION_OWED_KEY, removedDeviceId);
  }

  /** Forgets the identity and key (the device was removed); call history stays on the device. */
  async clearPairing(): Promise<void> {
    await this.store.delete(IDENTITY_KEY);
    await this.store.delete(E2E_KEY_KEY);
    await this.store.delete(LAST_EVENT_ID_KEY);
    await this.store.delete(KEY_ROTATION_OWED_KEY);
  }

  async saveFormOfAddress(value: string): Promise<void> {
    if (value.trim() === "") await this.store.delete(FORM_OF_ADDRESS_KEY);
    else await this.store.set(FORM_OF_ADDRESS_KEY, value.trim());
  }

  async loadInterfaceLanguage(): Promise<InterfaceLanguageChoice> {
    const value = await this.store.get<unknown>(INTERFACE_LANGUAGE_KEY);
    return isInterfaceLanguageChoice(value) ? value : "system";
  }

  async saveInterfaceLanguage(choice: InterfaceLanguageChoice): Promise<void> {
    await this.store.set(INTERFACE_LANGUAGE_KEY, choice);
  }

  /** The report language chosen in the app; null: it follows the system. */
  async loadReportLanguage(): Promise<ReportLocale | null> {
    const value = await this.store.get<unknown>(REPORT_LANGUAGE_KEY);
    return isReportLocale(value) ? value : null;
  }

  async saveReportLanguage(language: ReportLocale | null): Promise<void> {
    if (language === null) await this.store.delete(REPORT_LANGUAGE_KEY);
    else await this.store.set(REPORT_LANGUAGE_KEY, language);
  }

  async loadRingModes(): Promise<RingMode[]> {
    return readStoredModes(await this.store.get(RING_MODES_KEY));
  }

  async saveRingModes(modes: readonly RingMode[]): Promise<void> {
    await this.store.set(RING_MODES_KEY, modes);
  }

  async loadRingtoneChoices(): Promise<RingtoneChoices> {
    return readRingtoneChoices(await this.store.get(RINGTONE_CHOICES_KEY));
  }

  async saveRingtoneChoices(choices: RingtoneChoices): Promise<void> {
    await this.store.set(RINGTONE_CHOICES_KEY, choices);
  }

  async loadQuestionChannel(): Promise<QuestionChannel | null> {
    const parsed = QuestionChannel.safeParse(await this.store.get(QUESTION_CHANNEL_KEY));
    return parsed.success ? parsed.data : null;
  }

  async saveQuestionChannel(channel: QuestionChannel | null): Promise<void> {
    if (channel === null) await this.store.delete(QUESTION_CHANNEL_KEY);
    else await this.store.set(QUESTION_CHANNEL_KEY, QuestionChannel.parse(channel));
  }

  /** The computer chosen for settings and dispatch; null: the account's first computer. */
  async loadComputerId(): Promise<string | null> {
    const value = await this.store.get<unknown>(COMPUTER_KEY);
    return typeof value === "string" ? value : null;
  }

  async saveComputerId(deviceId: string): Promise<void> {
    await this.store.set(COMPUTER_KEY, deviceId);
  }

  async loadWatchedWorkspaces(): Promise<string[]> {
    const value = await this.store.get<unknown>(WATCHED_WORKSPACES_KEY);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
  }

  async saveWatchedWorkspaces(ids: readonly string[]): Promise<void> {
    await this.store.set(WATCHED_WORKSPACES_KEY, ids);
  }

  async loadDispatchLastUsed(): Promise<DispatchLastUsed> {
    const parsed = DispatchLastUsed.safeParse(await this.store.get(DISPATCH_LAST_USED_KEY));
    return parsed.success ? parsed.data : { workspaceId: null, projectId: null, agentId: null };
  }

  async saveDispatchLastUsed(lastUsed: DispatchLastUsed): Promise<void> {
    await this.store.set(DISPATCH_LAST_USED_KEY, lastUsed);
  }

  async loadFormOfAddress(): Promise<string | null> {
    const value = await this.store.get<unknown>(FORM_OF_ADDRESS_KEY);
    return typeof value === "string" && value.trim() !== "" ? value : null;
  }

  async isSoundEnabled(): Promise<boolean> {
    return (await this.store.get<unknown>(SOUND_ENABLED_KEY)) === true;
  }

  async setSoundEnabled(): Promise<void> {
    await this.store.set(SOUND_ENABLED_KEY, true);
  }

  async loadLastEventId(): Promise<string | null> {
    const value = await this.store.get<unknown>(LAST_EVENT_ID_KEY);
    return typeof value === "string" ? value : null;
  }

  async saveLastEventId(id: string): Promise<void> {
    await this.store.set(LAST_EVENT_ID_KEY, id);
  }
}
