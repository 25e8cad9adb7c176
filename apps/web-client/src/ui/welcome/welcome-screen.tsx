import type { RelaySetup } from "@ringback/protocol";
import { useEffect, useState } from "preact/hooks";
import type { AppController, AppView, WelcomeNotice } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

type Busy = "link" | "code" | "create" | null;

/** The welcome page: join with a pairing link, join with a code and the encryption phrase, or create an account. */
const WELCOME_NOTICES: Record<WelcomeNotice, string> = {
  "device-removed": "This device was removed from the account.",
  "removed-here": "You removed this device from the account.",
};

export function WelcomeScreen({ controller, view }: Props) {
  const [deviceName, setDeviceName] = useState(controller.defaultDeviceName);
  const [link, setLink] = useState(view.pairingLink ?? "");
  const [serverUrl, setServerUrl] = useState(controller.defaultServerUrl);
  const [code, setCode] = useState("");
  const [phrase, setPhrase] = useState("");
  const [claimCode, setClaimCode] = useState("");
  const [newPhrase, setNewPhrase] = useState("");
  const [setup, setSetup] = useState<RelaySetup | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    setSetup(null);
    controller
      .relayClient(serverUrl)
      .setup()
      .then((answer) => isCurrent && setSetup(answer))
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [controller, serverUrl]);

  const run = (kind: Exclude<Busy, null>, action: () => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    setBusy(kind);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(null);
    }
  };

  return (
    <main class="screen welcome" data-testid="welcome-screen">
      <h1>Ringback</h1>
      <p class="lead">Your agents call you when they finish.</p>
      {view.notice && <p class="notice">{WELCOME_NOTICES[view.notice]}</p>}
      {error && (
        <p class="error" role="alert" data-testid="welcome-error">
          {error}
        </p>
      )}
      <label class="field">
        This device's name
        <input value={deviceName} onInput={(event) => setDeviceName(event.currentTarget.value)} />
      </label>

      <form class="card" onSubmit={run("link", () => controller.joinWithLink(link, deviceName))}>
        <h2>Join with a pairing link</h2>
        <p class="hint">
          Open the link from <code>ringback pair</code> or from another device's Settings › Devices, or paste
          it.
        </p>
        <input
          data-testid="pairing-link-input"
          placeholder="https://…/#pair=…&key=…"
          value={link}
          onInput={(event) => setLink(event.currentTarget.value)}
        />
        <button type="submit" data-testid="join-with-link" disabled={busy !== null || link.trim() === ""}>
          {busy === "link" ? "Joining…" : "Join"}
        </button>
      </form>

      <form
        class="card"
        onSubmit={run("code", () => controller.joinWithCode({ serverUrl, code, phrase }, deviceName))}
      >
        <h2>Join with a code</h2>
        <label class="field">
          Relay address
          <input value={serverUrl} onInput={(event) => setServerUrl(event.currentTarget.value)} />
        </label>
        <label class="field">
          6-digit pairing code
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onInput={(event) => setCode(event.currentTarget.value)}
          />
        </label>
        <label class="field">
          Encryption phrase (the same as on your computer)
          <input type="password" value={phrase} onInput={(event) => setPhrase(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy !== null}>
          {busy === "code" ? "Deriving the key and joining…" : "Join"}
        </button>
      </form>

      <form
        class="card"
        onSubmit={run("create", () =>
          controller.createAccount(
            { serverUrl, ...(claimCode ? { claimCode } : {}), ...(newPhrase ? { phrase: newPhrase } : {}) },
            deviceName,
          ),
        )}
      >
        <h2>Create a new account</h2>
        <p class="hint">
          For the first device. Your computer then joins with a pairing link from Settings › Devices.
        </p>
        {setup?.claimRequired && (
          <label class="field">
            Claim code (printed when the relay started)
            <input
              data-testid="claim-code"
              value={claimCode}
              onInput={(event) => setClaimCode(event.currentTarget.value)}
            />
          </label>
        )}
        <label class="field">
          Encryption phrase (optional, at least 12 characters; empty for a random key)
          <input
            type="password"
            data-testid="new-account-phrase"
            value={newPhrase}
            onInput={(event) => setNewPhrase(event.currentTarget.value)}
          />
        </label>
        <button type="submit" data-testid="create-account" disabled={busy !== null}>
          {busy === "create" ? "Creating…" : "Create account"}
        </button>
      </form>
    </main>
  );
}
