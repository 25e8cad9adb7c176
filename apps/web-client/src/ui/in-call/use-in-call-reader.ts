import type { CallRecord } from "@ringback/client";
import { useEffect, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { InCallReader, type InCallReading } from "../../app/voice/in-call-reader.js";

/** When the reading waits, and when it starts again from the beginning. */
interface ReadingTurn {
  /** A round-up's opening is read first: the call's reading waits until it is done. */
  readonly isHeld?: boolean;
  /** A new number reads the call again from its start (a round-up's Repeat). */
  readonly readings?: number;
}

/** Starts reading the call when the screen opens and stops when it closes (hang-up or the call ended elsewhere). */
export function useInCallReader(controller: AppController, record: CallRecord, turn: ReadingTurn = {}) {
  const [reader, setReader] = useState<InCallReader | null>(null);
  const [reading, setReading] = useState<InCallReading | null>(null);
  const isHeld = turn.isHeld ?? false;
  useEffect(() => {
    if (isHeld) return undefined;
    let active: InCallReader | null = null;
    let isCurrent = true;
    controller.reading
      .voiceFor(record)
      .then((voice) => {
        if (!isCurrent) return;
        active = new InCallReader(controller.reading.script(record), voice);
        active.subscribe(setReading);
        setReader(active);
        setReading(active.reading);
        active.start();
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
      active?.stop();
    };
    // Only a new call (or reading it again) restarts the reading; status changes of the same record do not.
  }, [controller, record.eventId, isHeld, turn.readings]);
  return { reader, reading };
}
