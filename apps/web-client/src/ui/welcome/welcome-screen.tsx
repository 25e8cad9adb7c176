import { CORE_TEXTS, type CoreTexts } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView, WelcomeNotice } from "../../app/controller/app-controller.js";
import { texts } from "../shared/use-texts.js";
import { CodeJoinForm } from "./code-join-form.js";
import { CreateAccountForm } from "./create-account-form.js";
import { DeviceNameField } from "./device-name-field.js";
import { LinkJoinCard } from "./link-join-card.js";
import { PastedLinkForm } from "./pasted-link-form.js";
import { useWelcomeForm } from "./use-welcome-form.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

const WELCOME_NOTICES: Record<WelcomeNotice, keyof CoreTexts> = {
  "device-removed": "noticeDeviceRemoved",
  "removed-here": "noticeRemovedHere",
};

/**
 * The welcome page: join with a pairing link, join with a code and the encryption phrase, or create an account.
 * Opened from a pairing link it leads with that link's account (the relay it names, the device's name, Join), and
 * the other ways, creating an account among them, wait behind a secondary link. A failure is said next to the form
 * that failed and scrolled into view.
 */
export function WelcomeScreen({ controller, view }: Props) {
  const language = view.interfaceLanguage;
  const t = texts(CORE_TEXTS, language);
  const state = useWelcomeForm(controller.devicePairing, view.pairingLink);
  const openedFromLink = view.pairingLink !== null;
  const [isShowingOtherWays, setShowingOtherWays] = useState(!openedFromLink);
  const form = { state, t, language };
  return (
    <main
      class="screen welcome"
      data-testid="welcome-screen"
      data-opened-from={openedFromLink ? "link" : "app"}
    >
      <h1>{t.appName}</h1>
      <p class="lead">{openedFromLink ? t.joinThisAccountLead : t.welcomeLead}</p>
      {view.notice && <p class="notice">{t[WELCOME_NOTICES[view.notice]] as string}</p>}
      {openedFromLink && <LinkJoinCard {...form} />}
      {openedFromLink && !isShowingOtherWays && (
        <button
          type="button"
          class="link other-ways"
          data-testid="other-ways"
          onClick={() => setShowingOtherWays(true)}
        >
          {t.otherWaysToJoin}
        </button>
      )}
      {isShowingOtherWays && (
        <>
          {!openedFromLink && <DeviceNameField state={state} t={t} />}
          <PastedLinkForm {...form} openedFromLink={openedFromLink} />
          <CodeJoinForm {...form} />
          <CreateAccountForm {...form} />
        </>
      )}
    </main>
  );
}
