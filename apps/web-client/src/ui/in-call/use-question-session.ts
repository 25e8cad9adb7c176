import type { CallRecord } from "@ringback/client";
import {
  followReader,
  type ListeningProgress,
  QuestionSession,
  READER_START,
  startProgress,
} from "@ringback/client";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import type { InCallReader, InCallReading } from "../../app/voice/in-call-reader.js";

/**
 * The call's question session: follows the reader for the listening progress, pauses it while a question is
 * answered, and stops the answer when the screen closes (hang-up, or the call ended elsewhere).
 */
export function useQuestionSession(
  controller: AppController,
  record: CallRecord,
  reader: InCallReader | null,
  reading: InCallReading | null,
): QuestionSession {
  const progress = useRef<ListeningProgress>(startProgress(READER_START));
  const readerRef = useRef(reader);
  readerRef.current = reader;
  if (reading) progress.current = followReader(progress.current, reading.state);
  const { eventId } = record;
  const session = useMemo(
    () =>
      new QuestionSession({
        script: controller.reading.script(record),
        record: () => controller.view.calls.records[eventId] ?? record,
        progress: () => progress.current,
        channel: async () => controller.view.questionChannel,
        formOfAddress: controller.view.formOfAddress,
        save: (change) => controller.calls.changeContent(eventId, change),
        pauseReading: () => readerRef.current?.dispatch({ type: "pause" }),
        voice: controller.voicePlatform,
        voiceSettings: () => controller.view.voice,
      }),
    // One session per call: a status change of the same record keeps it.
    [controller, eventId],
  );
  useEffect(() => () => session.stop(), [session]);
  return session;
}
