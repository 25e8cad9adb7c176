import type { CoreTexts } from "@ringback/client/texts";
import type { InCallReader, InCallReading } from "../../app/voice/in-call-reader.js";

interface Props {
  /** Null until the voice is ready: the buttons do nothing yet. */
  readonly reader: InCallReader | null;
  readonly status: InCallReading["state"]["status"] | undefined;
  readonly t: CoreTexts;
}

/** Back a sentence, pause or resume (read again once finished), skip ahead. */
export function ReaderButtons({ reader, status, t }: Props) {
  return (
    <div class="reader-buttons">
      <button type="button" data-testid="back-button" onClick={() => reader?.dispatch({ type: "back" })}>
        {t.back}
      </button>
      {status === "reading" ? (
        <button type="button" data-testid="pause-button" onClick={() => reader?.dispatch({ type: "pause" })}>
          {t.pause}
        </button>
      ) : (
        <button
          type="button"
          data-testid="resume-button"
          onClick={() =>
            reader?.dispatch(status === "finished" ? { type: "read-main-again" } : { type: "resume" })
          }
        >
          {status === "finished" ? t.readAgain : t.resume}
        </button>
      )}
      <button type="button" data-testid="skip-button" onClick={() => reader?.dispatch({ type: "skip" })}>
        {t.skip}
      </button>
    </div>
  );
}
