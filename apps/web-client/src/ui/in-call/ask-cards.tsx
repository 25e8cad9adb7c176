import type { CallRecord } from "@ringback/client";

interface Props {
  readonly record: CallRecord;
  /** What the agent said last before it asked, when the ask carries it. */
  readonly lastWords: string | null | undefined;
}

/** The exact request: each of the brief's cards whole, and the agent's last words. */
export function AskCards({ record, lastWords }: Props) {
  return (
    <>
      {record.payload.brief.cards.map((card) => (
        <article class="ask-card" key={card.title} data-testid="ask-card">
          <h3>{card.title}</h3>
          <pre>{card.body}</pre>
        </article>
      ))}
      {lastWords && (
        <blockquote class="ask-last-words" data-testid="ask-last-words">
          {lastWords}
        </blockquote>
      )}
    </>
  );
}
