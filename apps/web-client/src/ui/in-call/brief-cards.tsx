import type { BriefScript } from "@ringback/client";
import type { CoreTexts } from "@ringback/client/texts";
import type { InCallReader } from "../../app/voice/in-call-reader.js";

interface Props {
  readonly script: BriefScript;
  readonly reader: InCallReader | null;
  readonly t: CoreTexts;
}

/** The brief's cards, each a button that reads that card. */
export function BriefCards({ script, reader, t }: Props) {
  if (script.cards.length === 0) return null;
  return (
    <section class="cards">
      <h2>{t.cards}</h2>
      {script.cardTexts.map((card, index) => (
        <article class="brief-card" key={card.title}>
          <button
            type="button"
            class="link"
            onClick={() => reader?.dispatch({ type: "jump-to-card", card: index })}
          >
            {card.title}
          </button>
          <p>{card.body}</p>
        </article>
      ))}
    </section>
  );
}
