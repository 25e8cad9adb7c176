import { describe, expect, it } from "vitest";
import { createSpeechInput, type RecognitionLike, SpeechInputError } from "./speech-input.js";

/** A recogniser that plays a script when started: results, then an error or not, then the end. */
function fakeRecognition(script: { transcripts?: string[]; error?: string }) {
  const started: FakeRecognition[] = [];
  class FakeRecognition implements RecognitionLike {
    lang = "";
    continuous = true;
    interimResults = true;
    maxAlternatives = 5;
    onresult: RecognitionLike["onresult"] = null;
    onerror: RecognitionLike["onerror"] = null;
    onend: RecognitionLike["onend"] = null;
    start() {
      started.push(this);
      queueMicrotask(() => {
        if (script.transcripts)
          this.onresult?.({ results: script.transcripts.map((transcript) => [{ transcript }]) });
        if (script.error) this.onerror?.({ error: script.error });
        this.onend?.();
      });
    }
    stop() {}
    abort() {}
  }
  return { FakeRecognition, started };
}

describe("spoken questions", () => {
  it("is unavailable where the browser has no speech recognition", () => {
    expect(createSpeechInput({})).toBeNull();
  });

  it("recognises one utterance in the brief's language, with the prefixed constructor too", async () => {
    const { FakeRecognition, started } = fakeRecognition({ transcripts: ["ship it ", "today"] });
    const input = createSpeechInput({ webkitSpeechRecognition: FakeRecognition });
    expect(await input?.listen("zh-CN")).toBe("ship it  today");
    expect(started[0]).toMatchObject({
      lang: "zh-CN",
      continuous: false,
      interimResults: false,
      maxAlternatives: 1,
    });
  });

  it("gives an empty question for silence, and rejects a real failure", async () => {
    const silent = fakeRecognition({ error: "no-speech" });
    expect(await createSpeechInput({ SpeechRecognition: silent.FakeRecognition })?.listen("en-US")).toBe("");
    const denied = fakeRecognition({ error: "not-allowed" });
    await expect(
      createSpeechInput({ SpeechRecognition: denied.FakeRecognition })?.listen("en-US"),
    ).rejects.toEqual(new SpeechInputError("not-allowed"));
  });

  it("rejects with the exception's name as the code when the recogniser refuses to start", async () => {
    const { FakeRecognition } = fakeRecognition({});
    class BusyRecognition extends FakeRecognition {
      override start() {
        throw new DOMException("recognition has already started", "InvalidStateError");
      }
    }
    const failure = await createSpeechInput({ SpeechRecognition: BusyRecognition })
      ?.listen("en-US")
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(SpeechInputError);
    expect((failure as SpeechInputError).problem).toBe("InvalidStateError");
  });
});
