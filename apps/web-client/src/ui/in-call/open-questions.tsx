import type { CoreTexts } from "@ringback/client/texts";

/** The brief's open questions, when it has any. */
export function OpenQuestions({
  questions,
  t,
}: {
  readonly questions: readonly string[];
  readonly t: CoreTexts;
}) {
  if (questions.length === 0) return null;
  return (
    <section class="questions">
      <h2>{t.openQuestions}</h2>
      <ul>
        {questions.map((question) => (
          <li key={question}>{question}</li>
        ))}
      </ul>
    </section>
  );
}
