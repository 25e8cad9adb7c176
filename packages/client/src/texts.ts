// `@ringback/client/texts`: the interface texts, plain data in every interface language (English and Chinese), and
// which language the interface shows. A client with its own wording leaves them out.

export {
  INTERFACE_LANGUAGE_CHOICES,
  INTERFACE_LANGUAGES,
  type InterfaceLanguage,
  type InterfaceLanguageChoice,
  resolveInterfaceLanguage,
} from "./i18n/interface-language.js";
export type { Text, TextSets } from "./i18n/text-sets.js";
export { CALL_RULES_TEXTS, type CallRulesTexts } from "./i18n/texts/call-rules.js";
export { COMPUTER_TEXTS, type ComputerTexts } from "./i18n/texts/computer.js";
export { CORE_TEXTS, type CoreTexts } from "./i18n/texts/core.js";
export { DISPATCH_TEXTS } from "./i18n/texts/dispatch.js";
export { ERROR_CODE_TEXTS } from "./i18n/texts/error-codes.js";
export { ESCALATION_TEXTS, type EscalationTexts } from "./i18n/texts/escalation.js";
export { FLEET_TEXTS, type FleetTexts } from "./i18n/texts/fleet.js";
export { IN_CALL_TEXTS, type InCallTexts } from "./i18n/texts/in-call.js";
export { NEEDS_YOU_TEXTS, type NeedsYouTexts } from "./i18n/texts/needs-you.js";
export { NOTIFICATION_TEXTS, type NotificationTexts } from "./i18n/texts/notifications.js";
export { PROBLEM_TEXTS, type ProblemTexts } from "./i18n/texts/problems.js";
export { RELAY_REACH_TEXTS, type RelayReachTexts } from "./i18n/texts/relay-reach.js";
export { SETTINGS_TEXTS, type SettingsTexts } from "./i18n/texts/settings.js";
export { PUSH_TEXTS, type PushTexts } from "./push/push-texts.js";
