import type { CallRecord } from "@ringback/client";
import type { CoreTexts } from "@ringback/client/texts";

/** The decisions taken in the call, each with the question it answers. */
export function DecisionList({ record, t }: { readonly record: CallRecord; readonly t: CoreTexts }) {
  if (record.decisions.length === 0) return null;
  return (
    <section class="decisions" data-testid="decisions">
      <h3>{t.decisions}</h3>
      <ul>
        {record.decisions.map((decision, index) => (
          <li key={index} data-testid="decision">
            {decision.text}
            {decision.question && <span class="hint"> {t.decisionFor(decision.question)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
