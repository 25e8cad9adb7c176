/** One event of a streamed answer: its `event:` name (empty when none) and its `data:` read as JSON. */
interface ParsedEvent<Data> {
  event: string;
  data: Data;
}

/** The events of a whole `text/event-stream` body, in order. */
export function parseServerSentEvents<Data>(text: string): ParsedEvent<Data>[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length) ?? "";
      const data = lines.find((line) => line.startsWith("data: "))?.slice("data: ".length) ?? "null";
      return { event, data: JSON.parse(data) };
    });
}
