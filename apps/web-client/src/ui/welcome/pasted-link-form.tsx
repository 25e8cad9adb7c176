import type { WelcomeFormProps } from "./use-welcome-form.js";
import { WelcomeError } from "./welcome-error.js";

/** Join with a pairing link pasted in; opened from a link, its failures are said at the link's own card. */
export function PastedLinkForm({
  state,
  t,
  language,
  openedFromLink,
}: WelcomeFormProps & { openedFromLink: boolean }) {
  const { fields, busy } = state;
  return (
    <form class="card" onSubmit={state.submit("link")}>
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
        value={fields.link}
        onInput={(event) => state.setField("link", event.currentTarget.value)}
      />
      <button
        type="submit"
        data-testid={openedFromLink ? "join-with-pasted-link" : "join-with-link"}
        disabled={busy !== null || fields.link.trim() === ""}
      >
        {busy === "link" ? t.joining : t.join}
      </button>
      {!openedFromLink && <WelcomeError form="link" state={state} language={language} />}
    </form>
  );
}
