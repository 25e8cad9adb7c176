import { RELAY_REACH_TEXTS } from "@ringback/client/texts";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { CodeSpans } from "../shared/code-spans.js";
import { formatTime } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";
import "./relay-reach.css";

/**
 * On every page of a paired device whose relay is out of reach: which relay, since when, and the way back (a new
 * pairing link, as after `start --lan`). Gone as soon as the relay is reached again.
 */
export function RelayUnreachableBanner({ controller, view }: { controller: AppController; view: AppView }) {
  const since = view.relayUnreachableSince;
  const serverUrl = view.pairing?.identity.serverUrl;
  if (since === null || serverUrl === undefined) return null;
  const t = texts(RELAY_REACH_TEXTS, view.interfaceLanguage);
  return (
    <section class="relay-unreachable" role="alert" data-testid="relay-unreachable" data-relay={serverUrl}>
      <p class="relay-unreachable-what">{t.relayUnreachable(serverUrl, formatTime(since))}</p>
      <p>
        <CodeSpans text={t.relayUnreachableHelp} />
      </p>
      <button type="button" class="primary" data-testid="rejoin" onClick={() => controller.startRejoin()}>
        {t.rejoinAction}
      </button>
    </section>
  );
}
