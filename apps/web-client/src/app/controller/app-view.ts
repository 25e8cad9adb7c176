import {
  type BriefLanguageSyncState,
  type CallsModel,
  DEFAULT_VOICE_SETTINGS,
  defaultReportLanguage,
  EMPTY_CALLS_MODEL,
  hasPairingFragment,
  type Pairing,
  type QuestionChannel,
  type ReportLocale,
  type StreamConnection,
  type UnreadableCall,
  type VoiceSettings,
} from "@ringback/client";
import {
  type InterfaceLanguage,
  type InterfaceLanguageChoice,
  resolveInterfaceLanguage,
} from "@ringback/client/texts";

type AppPhase = "loading" | "welcome" | "ready";

/** Why the device is on the welcome page again. */
export type WelcomeNotice = "device-removed" | "removed-here";

/**
 * A paired device joining again with a new pairing link (its relay is out of reach): `link` null while the link is
 * asked for, then the link, which the welcome page opened from a link takes (the stored pairing stays until then).
 */
interface Rejoin {
  readonly link: string | null;
}

/** Everything the screens render. */
export interface AppView {
  readonly phase: AppPhase;
  readonly pairing: Pairing | null;
  /** The call center's calls, connection and unreadable calls, as last seen. */
  readonly calls: CallsModel;
  readonly connection: StreamConnection;
  /** The relay has been out of reach since this time (ISO), as the call center says; null while it is reached. */
  readonly relayUnreachableSince: string | null;
  /** Joining again with a new pairing link, from the banner of a relay out of reach; null otherwise. */
  readonly rejoin: Rejoin | null;
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

/** What the app's parts change in the view; the screens re-render after each change. */
export type ChangeView = (change: Partial<AppView>) => void;

/** The view before anything is loaded: the system's languages, a pairing link when the page was opened with one. */
export function initialView(options: {
  readonly href: string;
  readonly preferredLanguages: readonly string[];
  readonly isSoundBlocked: boolean;
  readonly notificationPermission: NotificationPermission | "unsupported";
}): AppView {
  return {
    phase: "loading",
    pairing: null,
    calls: EMPTY_CALLS_MODEL,
    connection: "connecting",
    relayUnreachableSince: null,
    rejoin: null,
    isSoundBlocked: options.isSoundBlocked,
    hasEnabledSound: false,
    notificationPermission: options.notificationPermission,
    unreadable: [],
    voice: DEFAULT_VOICE_SETTINGS,
    formOfAddress: null,
    pairingLink: hasPairingFragment(options.href) ? options.href : null,
    notice: null,
    interfaceLanguageChoice: "system",
    interfaceLanguage: resolveInterfaceLanguage("system", options.preferredLanguages),
    reportLanguageChoice: null,
    reportLanguage: defaultReportLanguage(options.preferredLanguages),
    briefLanguageSync: { status: "idle" },
    questionChannel: null,
  };
}
