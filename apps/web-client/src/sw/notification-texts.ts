import { type InterfaceLanguageChoice, resolveInterfaceLanguage } from "../app/i18n/interface-language.js";
import { NOTIFICATION_TEXTS, type NotificationTexts } from "../app/i18n/texts/notifications.js";
import type { KeyValueStore } from "../app/storage/key-value.js";
import { LocalSettings } from "../app/storage/local-settings.js";

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
