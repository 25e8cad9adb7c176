import { activeCall, ringingCall } from "@ringback/client";
import { CORE_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../app/controller/app-controller.js";
import { CallsPage } from "./calls/calls-page.js";
import { DispatchPage } from "./dispatch/dispatch-page.js";
import { IdleScreen } from "./idle/idle-screen.js";
import { InCallScreen } from "./in-call/in-call-screen.js";
import { RejoinScreen } from "./relay-reach/rejoin-screen.js";
import { RelayUnreachableBanner } from "./relay-reach/relay-unreachable-banner.js";
import { RingingScreen } from "./ringing/ringing-screen.js";
import { SettingsScreen } from "./settings/settings-screen.js";
import { Icon, type IconName } from "./shared/icon.js";
import { useObservable } from "./shared/use-observable.js";
import { texts } from "./shared/use-texts.js";
import { WelcomeScreen } from "./welcome/welcome-screen.js";

type Page = "home" | "calls" | "dispatch" | "settings";

/**
 * Chooses the screen: welcome, a call in progress, a ringing call, joining again with a new pairing link, or the
 * pages of an idle device (under a banner while its relay is out of reach).
 */
export function App({ controller }: { controller: AppController }) {
  const view = useObservable(controller);
  const [page, setPage] = useState<Page>("home");
  // Each tap on a tab opens it afresh: tapping Settings again goes back to its index of sections.
  const [visit, setVisit] = useState(0);
  const select = (next: Page) => {
    setPage(next);
    setVisit((count) => count + 1);
  };
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  if (view.phase === "loading") return <main class="screen loading">{t.loading}</main>;
  if (view.phase === "welcome") return <WelcomeScreen controller={controller} view={view} />;
  const inCall = activeCall(view.calls);
  if (inCall)
    return <InCallScreen key={inCall.eventId} controller={controller} view={view} record={inCall} />;
  const ringing = ringingCall(view.calls);
  if (ringing) {
    return (
      <RingingScreen
        key={ringing.eventId}
        controller={controller}
        record={ringing}
        isSoundBlocked={view.isSoundBlocked}
        language={view.interfaceLanguage}
        calls={view.calls}
      />
    );
  }
  if (view.rejoin) return <RejoinScreen controller={controller} view={view} />;
  return (
    <main class="screen shell">
      <nav class="main-nav">
        <NavButton page="home" current={page} onSelect={select} label={t.navHome} />
        <NavButton page="calls" current={page} onSelect={select} label={t.navCalls} />
        <NavButton page="dispatch" current={page} onSelect={select} label={t.navDispatch} />
        <NavButton page="settings" current={page} onSelect={select} label={t.navSettings} />
      </nav>
      <RelayUnreachableBanner controller={controller} view={view} />
      <SoundBanner controller={controller} view={view} />
      {page === "home" && (
        <IdleScreen controller={controller} view={view} onShowCalls={() => select("calls")} />
      )}
      {page === "calls" && <CallsPage controller={controller} view={view} />}
      {page === "dispatch" && <DispatchPage controller={controller} view={view} />}
      {page === "settings" && <SettingsScreen key={visit} controller={controller} view={view} />}
    </main>
  );
}

const PAGE_ICONS: Record<Page, IconName> = {
  home: "home",
  calls: "phone",
  dispatch: "send",
  settings: "settings",
};

function NavButton(props: { page: Page; current: Page; label: string; onSelect: (page: Page) => void }) {
  return (
    <button
      type="button"
      data-testid={`nav-${props.page}`}
      aria-current={props.page === props.current ? "page" : undefined}
      onClick={() => props.onSelect(props.page)}
    >
      <Icon name={PAGE_ICONS[props.page]} />
      {props.label}
    </button>
  );
}

/** Browsers keep a page silent until the person interacts with it: say so, and offer the gesture. */
function SoundBanner({ controller, view }: { controller: AppController; view: AppView }) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  if (!view.isSoundBlocked && view.notificationPermission !== "default") return null;
  return (
    <button
      type="button"
      class="sound-banner"
      data-testid="enable-sound"
      onClick={() => controller.sound.enable()}
    >
      {view.isSoundBlocked ? t.enableSound : t.allowNotifications}
    </button>
  );
}
