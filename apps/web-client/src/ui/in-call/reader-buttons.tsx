import type { CoreTexts } from "@ringback/client/texts";
import type { InCallReader, InCallReading } from "../../app/voice/in-call-reader.js";
import { CallControl } from "./call-control.js";

interface Props {
  /** Null until the voice is ready: the buttons do nothing yet. */
  readonly reader: InCallReader | null;
  readonly status: InCallReading["state"]["status"] | undefined;
  readonly t: CoreTexts;
}

/** Back a sentence, the speaker (pause, resume, or read again once finished), skip ahead. */
export function ReaderButtons({ reader, status, t }: Props) {
  return (
    <>
      <CallControl
        icon="back"
        label={t.back}
        testId="back-button"
        onClick={() => reader?.dispatch({ type: "back" })}
      />
      {status === "reading" ? (
        <CallControl
          icon="speaker-on"
          label={t.pause}
          testId="pause-button"
          isPressed={true}
          onClick={() => reader?.dispatch({ type: "pause" })}
        />
      ) : (
        <CallControl
          icon={status === "finished" ? "again" : "speaker-off"}
          label={status === "finished" ? t.readAgain : t.resume}
          testId="resume-button"
          isPressed={false}
          onClick={() =>
            reader?.dispatch(status === "finished" ? { type: "read-main-again" } : { type: "resume" })
          }
        />
      )}
      <CallControl
        icon="skip"
        label={t.skip}
        testId="skip-button"
        onClick={() => reader?.dispatch({ type: "skip" })}
      />
    </>
  );
}
