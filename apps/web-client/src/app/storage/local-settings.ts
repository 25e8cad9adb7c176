import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import { DeviceCredentials } from "@ringback/protocol";
import { z } from "zod";
import {
  E2E_KEY_KEY,
  FORM_OF_ADDRESS_KEY,
  IDENTITY_KEY,
  LAST_EVENT_ID_KEY,
  LEGACY_KEYS,
  SOUND_ENABLED_KEY,
  VOICE_SETTINGS_KEY,
} from "../../shared/storage-keys.js";
import { clampSpeed, DEFAULT_VOICE_SETTINGS, type VoiceSettings } from "../voice/voice-settings.js";
import type { KeyValueStore } from "./key-value.js";

/** Who this device is: the relay's address and the credentials it issued. Stored only on the device. */
export const DeviceIdentity = DeviceCredentials.extend({ serverUrl: z.string().min(1) });
export type DeviceIdentity = z.infer<typeof DeviceIdentity>;

/** What a paired device needs to receive calls: its identity and the end-to-end key. */
export interface Pairing {
  readonly identity: DeviceIdentity;
  readonly key: E2eKey;
}

const StoredVoiceSettings = z.object({ voiceURI: z.string().nullable(), speed: z.number() });

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

  /** Forgets the identity and key (the device was removed); call history stays on the device. */
  async clearPairing(): Promise<void> {
    await this.store.delete(IDENTITY_KEY);
    await this.store.delete(E2E_KEY_KEY);
    await this.store.delete(LAST_EVENT_ID_KEY);
  }

  async loadVoice(): Promise<VoiceSettings> {
    const stored = StoredVoiceSettings.safeParse(await this.store.get(VOICE_SETTINGS_KEY));
    if (!stored.success) return DEFAULT_VOICE_SETTINGS;
    return { voiceURI: stored.data.voiceURI, speed: clampSpeed(stored.data.speed) };
  }

  async saveVoice(settings: VoiceSettings): Promise<void> {
    await this.store.set(VOICE_SETTINGS_KEY, {
      voiceURI: settings.voiceURI,
      speed: clampSpeed(settings.speed),
    });
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
