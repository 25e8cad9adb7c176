import { type CallRecord, type FleetEntry, fleetList } from "@ringback/client";
import { FLEET_TEXTS } from "@ringback/client/texts";
import { fleetEntryWords } from "@ringback/client/views";
import type { ReportSource } from "@ringback/protocol";
import { useEffect, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly onShowCalls: () => void;
}

const SOURCE_NAMES: Record<ReportSource, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  tracker: "Tracker",
};

/** "working 12 min" moves on by itself: the card is drawn again every half minute. */
const REDRAW_MS = 30_000;

/**
 * Every computer's agents in one list, newest change first: what each is doing and since when, and one tap to its
 * call (a call still waiting is answered and read) or to the calls page where an answered call's brief is kept.
 * Nothing shows until a computer has sent its agents.
 */
export function FleetCard({ controller, view, onShowCalls }: Props) {
  const { book } = useObservable(controller.fleet);
  useRedrawEvery(REDRAW_MS);
  // Read at each drawing, not kept from the last tick: a state that arrives between ticks is aged right at once.
  const now = new Date();
  const ft = texts(FLEET_TEXTS, view.interfaceLanguage);
  const entries = fleetList(book);
  if (entries.length === 0) return null;
  const open = (record: CallRecord) => {
    const state = record.status.state;
    if (state === "ringing" || state === "missed") controller.calls.answer(record.eventId);
    else onShowCalls();
  };
  return (
    <section class="card fleet-card" data-testid="fleet-card">
      <h2>{ft.fleetTitle}</h2>
      <ul class="fleet-list">
        {entries.map((entry) => {
          const record = entry.eventId === null ? undefined : view.calls.records[entry.eventId];
          return (
            <li key={`${entry.computerId}/${entry.agentId}`}>
              <FleetRow
                entry={entry}
                words={fleetEntryWords(entry, now, ft)}
                label={ft.openCall}
                onOpen={record ? () => open(record) : null}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function FleetRow(props: { entry: FleetEntry; words: string; label: string; onOpen: (() => void) | null }) {
  const { entry, words, onOpen } = props;
  const content = (
    <>
      <span class="fleet-project">{entry.project}</span>
      <span class="fleet-agent">{SOURCE_NAMES[entry.source]}</span>
      <span class="fleet-words" data-testid="fleet-words">
        {words}
      </span>
    </>
  );
  const data = { "data-testid": "fleet-entry", "data-agent-id": entry.agentId, "data-state": entry.state };
  if (!onOpen)
    return (
      <div class={`fleet-entry ${entry.state}`} {...data}>
        {content}
      </div>
    );
  return (
    <button
      type="button"
      class={`fleet-entry ${entry.state}`}
      aria-label={`${props.label}: ${entry.project}`}
      onClick={onOpen}
      {...data}
    >
      {content}
    </button>
  );
}

function useRedrawEvery(intervalMs: number): void {
  const [, setTicks] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTicks((ticks) => ticks + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}
