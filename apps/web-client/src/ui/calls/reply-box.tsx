import { type CallRecord, isTestCall, trackerQuestionOf } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, IN_CALL_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { useSpokenWords, withHeard } from "../shared/use-spoken-words.js";
import { texts } from "../shared/use-texts.js";
import { ReplyButtons } from "./reply-buttons.js";
import { ReplyLines } from "./reply-lines.js";
import { ReplyNotices } from "./reply-notices.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly language: InterfaceLanguage;
  /**
   * In the call itself: the form is always open under its own heading, and a reply can be spoken (recognised in
   * this language, the brief's) into the box before it is sent. Without it: after hang-up, behind "Reply".
   */
  readonly inCall?: { readonly speechLanguage: string };
}

/**
 * The replies sent on a call with their delivery status, and a box to send another: in the call (typed or spoken,
 * always open) or after hang-up (behind "Reply"). A reply resumes the agent on the computer that reported the call; on
 * a tracker agent's question, that computer posts it as a comment on the issue.
 */
export function ReplyBox({ controller, record, language, inCall }: Props) {
  const t = texts(CORE_TEXTS, language);
  const it = texts(IN_CALL_TEXTS, language);
  const [isOpenAfterCall, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [isEmptyRefused, setEmptyRefused] = useState(false);
  const { busy, failure, run } = useBusyAction<"sending">();
  const isInCall = inCall !== undefined;
  const speech = useSpokenWords(isInCall);
  const speechNotice = speech.notice;
  const isOpen = isInCall || isOpenAfterCall;
  // A tracker agent's question: the reply becomes a comment on the issue, not words to a resumed session.
  const isQuestion = trackerQuestionOf(record) !== null;

  // A spoken reply goes into the box, to be read over and sent (a misheard word must not resume the agent).
  const listen = (speechLanguage: string) =>
    speech.listen(speechLanguage, (heard) => setText((typed) => withHeard(typed, heard)));

  const send = (event: Event) => {
    event.preventDefault();
    setEmptyRefused(text.trim() === "");
    if (text.trim() === "") return;
    run("sending", async () => {
      await controller.calls.sendReply(record.eventId, text.trim());
      setText("");
      setOpen(false);
    }).catch(() => undefined);
  };

  return (
    <div class={inCall ? "reply-box in-call-reply" : "reply-box"} data-testid="reply-box">
      {inCall && (
        <>
          <h2>{it.replyTitle}</h2>
          {record.fromDeviceId !== null && (
            <p class="hint">{isQuestion ? it.replyAsCommentHint : it.replyInCallHint}</p>
          )}
        </>
      )}
      <ReplyLines record={record} language={language} />
      {isTestCall(record.eventId) ? (
        <p class="notice" data-testid="test-call-no-reply">
          {t.testCallNoReply}
        </p>
      ) : record.fromDeviceId === null ? (
        <p class="hint">{t.replyNoComputer}</p>
      ) : isOpen ? (
        <form class="reply-form" onSubmit={send}>
          <textarea
            data-testid="reply-input"
            aria-label={it.replyLabel}
            placeholder={isQuestion ? it.replyAsCommentPlaceholder : t.replyPlaceholder}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <ReplyNotices
            isEmptyRefused={isEmptyRefused}
            failure={failure?.error ?? null}
            speechNotice={speechNotice}
            language={language}
          />
          <ReplyButtons
            isSending={busy === "sending"}
            speech={inCall ? speech : null}
            t={t}
            onListen={() => inCall && listen(inCall.speechLanguage).catch(() => undefined)}
            onCancel={inCall ? null : () => setOpen(false)}
          />
        </form>
      ) : (
        <button type="button" class="link" data-testid="reply-button" onClick={() => setOpen(true)}>
          {t.reply}
        </button>
      )}
    </div>
  );
}
