import { parsePairingLink } from "@ringback/client";
import { CORE_TEXTS, type CoreTexts } from "@ringback/client/texts";
import { DEVICE_NAME_MAX_CHARS, type RelaySetup } from "@ringback/protocol";
import { useEffect, useRef, useState } from "preact/hooks";
import type { AppController, AppView, WelcomeNotice } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

type Busy = "link" | "code" | "create" | null;

const WELCOME_NOTICES: Record<WelcomeNotice, keyof CoreTexts> = {
  "device-removed": "noticeDeviceRemoved",
  "removed-here": "noticeRemovedHere",
};

/** The relay a pairing link names, as a person reads it (its host), or null for a link that cannot be read. */
function relayOfLink(link: string): string | null {
  try {
    return new URL(parsePairingLink(link).serverUrl).host;
  } catch {
    return null;
  }
}

/**
 * The welcome page: join with a pairing link, join with a code and the encryption phrase, or create an account.
 * Opened from a pairing link it leads with that link's account (the relay it names, the device's name, Join), and
 * the other ways, creating an account among them, wait behind a secondary link. A failure is said next to the form
 * that failed and scrolled into view.
 */
export function WelcomeScreen({ controller, view }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const [deviceName, setDeviceName] = useState(controller.devicePairing.defaultDeviceName);
  const [link, setLink] = useState(view.pairingLink ?? "");
  const [serverUrl, setServerUrl] = useState(controller.devicePairing.defaultServerUrl);
  const [code, setCode] = useState("");
  const [phrase, setPhrase] = useState("");
  const [claimCode, setClaimCode] = useState("");
  const [newPhrase, setNewPhrase] = useState("");
  const [setup, setSetup] = useState<RelaySetup | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<{ readonly text: string; readonly form: Exclude<Busy, null> } | null>(
    null,
  );
  const openedFromLink = view.pairingLink !== null;
  const [isShowingOtherWays, setShowingOtherWays] = useState(!openedFromLink);
  const errorLine = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    let isCurrent = true;
    setSetup(null);
    controller.devicePairing
      .relayClient(serverUrl)
      .setup()
      .then((answer) => isCurrent && setSetup(answer))
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [controller, serverUrl]);

  // A wrong code or phrase is said where the person is looking: next to the form, brought into view.
  useEffect(() => {
    if (error) errorLine.current?.scrollIntoView({ block: "center" });
  }, [error]);

  const run = (kind: Exclude<Busy, null>, action: () => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    setBusy(kind);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError({ text: errorText(caught, view.interfaceLanguage), form: kind });
    } finally {
      setBusy(null);
    }
  };

  const errorFor = (form: Exclude<Busy, null>) =>
    error?.form === form && (
      <p class="error" role="alert" data-testid="welcome-error" ref={errorLine}>
        {error.text}
      </p>
    );

  const deviceNameField = (
    <label class="field">
      {t.deviceName}
      <input
        value={deviceName}
        maxLength={DEVICE_NAME_MAX_CHARS}
        data-testid="welcome-device-name"
        onInput={(event) => setDeviceName(event.currentTarget.value)}
      />
    </label>
  );
  const joinLink = run("link", () => controller.devicePairing.joinWithLink(link, deviceName));
  const linkRelay = openedFromLink ? relayOfLink(link) : null;

  return (
    <main
      class="screen welcome"
      data-testid="welcome-screen"
      data-opened-from={openedFromLink ? "link" : "app"}
    >
      <h1>{t.appName}</h1>
      <p class="lead">{openedFromLink ? t.joinThisAccountLead : t.welcomeLead}</p>
      {view.notice && <p class="notice">{t[WELCOME_NOTICES[view.notice]] as string}</p>}

      {openedFromLink && (
        <form class="card link-join" data-testid="link-join" onSubmit={joinLink}>
          <h2>{t.joinThisAccountTitle}</h2>
          {linkRelay && <p class="hint">{t.joinThisAccountHint(linkRelay)}</p>}
          {deviceNameField}
          <button type="submit" class="primary" data-testid="join-with-link" disabled={busy !== null}>
            {busy === "link" ? t.joining : t.join}
          </button>
          {errorFor("link")}
        </form>
      )}
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
          {!openedFromLink && deviceNameField}
          <form
            class="card"
            onSubmit={run("link", () => controller.devicePairing.joinWithLink(link, deviceName))}
          >
            <h2>{t.joinWithLinkTitle}</h2>
            <p class="hint">
              {/* The command is written between backticks in both languages. */}
              {t.joinWithLinkHint
                .split("`")
                .map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}
            </p>
            <input
              data-testid="pairing-link-input"
              placeholder="https://…/#pair=…&key=…"
              value={link}
              onInput={(event) => setLink(event.currentTarget.value)}
            />
            <button
              type="submit"
              data-testid={openedFromLink ? "join-with-pasted-link" : "join-with-link"}
              disabled={busy !== null || link.trim() === ""}
            >
              {busy === "link" ? t.joining : t.join}
            </button>
            {!openedFromLink && errorFor("link")}
          </form>

          <form
            class="card"
            data-testid="join-with-code-form"
            onSubmit={run("code", () =>
              controller.devicePairing.joinWithCode({ serverUrl, code, phrase }, deviceName),
            )}
          >
            <h2>{t.joinWithCodeTitle}</h2>
            <label class="field">
              {t.relayAddress}
              <input value={serverUrl} onInput={(event) => setServerUrl(event.currentTarget.value)} />
            </label>
            <label class="field">
              {t.pairingCode}
              <input
                inputMode="numeric"
                autoComplete="one-time-code"
                data-testid="pairing-code"
                value={code}
                onInput={(event) => setCode(event.currentTarget.value)}
              />
            </label>
            <label class="field">
              {t.encryptionPhraseSame}
              <input
                type="password"
                data-testid="pairing-phrase"
                value={phrase}
                onInput={(event) => setPhrase(event.currentTarget.value)}
              />
            </label>
            <button type="submit" data-testid="join-with-code" disabled={busy !== null}>
              {busy === "code" ? t.derivingAndJoining : t.join}
            </button>
            {errorFor("code")}
          </form>

          <form
            class="card"
            onSubmit={run("create", () =>
              controller.devicePairing.createAccount(
                {
                  serverUrl,
                  ...(claimCode ? { claimCode } : {}),
                  ...(newPhrase ? { phrase: newPhrase } : {}),
                },
                deviceName,
              ),
            )}
          >
            <h2>{t.createAccountTitle}</h2>
            <p class="hint">{t.createAccountHint}</p>
            {setup?.claimRequired && (
              <label class="field">
                {t.claimCode}
                <input
                  data-testid="claim-code"
                  value={claimCode}
                  onInput={(event) => setClaimCode(event.currentTarget.value)}
                />
              </label>
            )}
            <label class="field">
              {t.newAccountPhrase}
              <input
                type="password"
                data-testid="new-account-phrase"
                value={newPhrase}
                onInput={(event) => setNewPhrase(event.currentTarget.value)}
              />
            </label>
            <button type="submit" data-testid="create-account" disabled={busy !== null}>
              {busy === "create" ? t.creating : t.createAccount}
            </button>
            {errorFor("create")}
          </form>
        </>
      )}
    </main>
  );
}
