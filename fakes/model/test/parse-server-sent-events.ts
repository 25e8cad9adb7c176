import { createParser } from "eventsource-parser";

/** One event of a streamed answer: its `event:` name (empty when none) and its `data:` read as JSON. */
interface ParsedEvent<Data> {
  event: string;
  data: Data;
}

/** The events of a whole `text/event-stream` body, in order. */
export function parseServerSentEvents<Data>(text: string): ParsedEvent<Data>[] {
  const events: ParsedEvent<Data>[] = [];
  const parser = createParser({
    onEvent: (event) => events.push({ event: event.event ?? "", data: JSON.parse(event.data) as Data }),
  });
  parser.feed(`${text}\n\n`);
  return events;
}
