import type { CallRecord } from "@ringback/client";
import type { CoreTexts } from "@ringback/client/texts";

/** A history record's in-call conversation and decisions, folded away until opened. */
export function CallConversation({ record, t }: { record: CallRecord; t: CoreTexts }) {
  if (record.conversation.length === 0 && record.decisions.length === 0) return null;
  return (
    <details class="call-conversation" data-testid="call-conversation">
      <summary>{t.conversation}</summary>
      <ul class="conversation">
        {record.conversation.map((entry, index) => (
          <li key={index} class={`entry ${entry.role}`}>
            <strong>{entry.role === "user" ? t.you : t.assistant}</strong> <span>{entry.text}</span>
          </li>
        ))}
      </ul>
      {record.decisions.length > 0 && (
        <section class="decisions">
          <h4>{t.decisions}</h4>
          <ul>
            {record.decisions.map((decision, index) => (
              <li key={index} data-testid="history-decision">
                {decision.text}
                {decision.question && <span class="hint"> {t.decisionFor(decision.question)}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </details>
  );
}
