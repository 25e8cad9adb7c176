import { COMPUTER_TEXTS, type InterfaceLanguage, NEEDS_YOU_TEXTS } from "@ringback/client/texts";
import { computerProblemText, presenceSetByText } from "@ringback/client/views";
import { useEffect } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/**
 * "I'm away", one switch per computer of the account: on, an agent there that asks permission rings the phones and
 * waits for a decision; off, it asks at the keyboard. Each switch is the computer's own setting, asked and changed
 * through the relay. Nothing shows for an account without a computer.
 */
export function PresenceSwitches({ controller, language }: Props) {
  const t = texts(NEEDS_YOU_TEXTS, language);
  const ct = texts(COMPUTER_TEXTS, language);
  const { rows } = useObservable(controller.presence);
  const formatAt = (at: Date) => at.toLocaleString(language, { dateStyle: "short", timeStyle: "short" });
  useEffect(() => {
    controller.presence.refresh().catch(() => undefined);
  }, [controller]);
  if (!rows || rows.length === 0) return null;
  return (
    <section class="card presence" data-testid="presence">
      <h2>{t.awayTitle}</h2>
      <p class="hint">{t.awayHint}</p>
      <ul class="presence-list">
        {rows.map((row) => (
          <li
            key={row.computerId}
            data-testid="presence-row"
            data-computer-id={row.computerId}
            data-away={row.presence === null ? "unknown" : String(row.presence.away)}
            data-busy={String(row.isBusy)}
          >
            <label class="away-switch">
              <input
                type="checkbox"
                data-testid="away-switch"
                checked={row.presence?.away ?? false}
                disabled={!row.isOnline || row.isBusy || row.presence === null}
                onChange={(event) =>
                  controller.presence
                    .setAway(row.computerId, event.currentTarget.checked)
                    .catch(() => undefined)
                }
              />
              <strong>{row.name ?? t.deviceOfKind("computer")}</strong>
              {!row.isOnline && <span class="hint"> ({t.awayOffline})</span>}
              {row.isOnline && row.isBusy && <span class="hint"> {t.awayLoading}</span>}
            </label>
            {row.presence && presenceSetByText(row.presence, t, formatAt) && (
              <p class="hint" data-testid="presence-set-by">
                {presenceSetByText(row.presence, t, formatAt)}
              </p>
            )}
            {!row.isSupported && (
              <p class="hint" data-testid="presence-unsupported">
                {t.awayUnsupported}
              </p>
            )}
            {row.problem && (
              <p class="error" data-testid="presence-problem">
                {t.awayFailed(computerProblemText(row.problem, ct))}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
