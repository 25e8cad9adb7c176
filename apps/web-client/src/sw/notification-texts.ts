import type { KeyValueStore } from "@ringback/client";
import { LocalSettings } from "@ringback/client";
import {
  type InterfaceLanguageChoice,
  NOTIFICATION_TEXTS,
  type NotificationTexts,
  resolveInterfaceLanguage,
} from "@ringback/client/texts";

/**
 * The texts of the worker's notifications in the device's interface language: the choice stored by the page
 * resolved against the browser's preferred languages. `null` (the choice could not be read) gives English, the
 * language the interface falls back to.
 */
export function notificationTexts(
  choice: InterfaceLanguageChoice | null,
  preferredLanguages: readonly string[],
): NotificationTexts {
  return NOTIFICATION_TEXTS[choice === null ? "en" : resolveInterfaceLanguage(choice, preferredLanguages)];
}

/**
 * Reads the interface-language choice the page stored on the device (the same IndexedDB) and picks the texts.
 * Storage failing must not cost the notification: it is then shown in English.
 */
export async function loadNotificationTexts(
  store: KeyValueStore,
  preferredLanguages: readonly string[],
): Promise<NotificationTexts> {
  const choice = await new LocalSettings(store).loadInterfaceLanguage().catch(() => null);
  return notificationTexts(choice, preferredLanguages);
}
