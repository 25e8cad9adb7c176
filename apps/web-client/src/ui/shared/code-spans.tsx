/** A text with commands between backticks, the commands set as code (the texts write them so in every language). */
export function CodeSpans({ text }: { text: string }) {
  return (
    <>{text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>
  );
}
