import type { CoreTexts } from "@ringback/client/texts";
import type { SpokenWords } from "../shared/use-spoken-words.js";

interface Props {
  readonly isSending: boolean;
  /** In the call: a reply can be spoken into the box; null after hang-up. */
  readonly speech: SpokenWords | null;
  readonly t: CoreTexts;
  readonly onListen: () => void;
  /** After hang-up the form folds away again; null in the call, where it stays open. */
  readonly onCancel: (() => void) | null;
}

/** Send, speak (in the call, where the browser recognises speech) or cancel (after hang-up). */
export function ReplyButtons({ isSending, speech, t, onListen, onCancel }: Props) {
  return (
    <div class="row">
      <button type="submit" class="primary" data-testid="send-reply" disabled={isSending}>
        {isSending ? t.sendingReply : t.sendReply}
      </button>
      {speech?.isAvailable && (
        <button type="button" data-testid="speak-reply" disabled={speech.isListening} onClick={onListen}>
          {speech.isListening ? t.listening : t.speak}
        </button>
      )}
      {onCancel && (
        <button type="button" onClick={onCancel}>
          {t.cancel}
        </button>
      )}
    </div>
  );
}
