import type { PreparedVoice } from "@ringback/client";
import { briefScript } from "@ringback/client";
import { describe, expect, it, vi } from "vitest";
import { payloadFor } from "../../../test/fixtures.js";
import { InCallReader } from "./in-call-reader.js";
import { VoiceUnavailableError } from "./voice-problem.js";

/** A voice that reads a sentence when the test says so: the platform's speech engine is outside the page logic. */
function steppedVoice() {
  const spoken: string[] = [];
  let finish: ((result: "done" | "cancelled") => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const voice: PreparedVoice = {
    speak: (sentence) => {
      spoken.push(sentence);
      return new Promise((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
    },
    cancel: () => finish?.("cancelled"),
  };
  return {
    voice,
    spoken,
    async finishSentence() {
      finish?.("done");
      await vi.waitFor(() => undefined);
    },
    async failSentence() {
      fail?.(new VoiceUnavailableError({ kind: "engine-failed", code: "synthesis-failed" }));
      await vi.waitFor(() => undefined);
    },
  };
}

const script = briefScript(payloadFor({ eventId: "e1" }), { formOfAddress: null });

describe("in-call reader", () => {
  it("reads the main part sentence by sentence, then stops", async () => {
    const stepped = steppedVoice();
    const reader = new InCallReader(script, stepped.voice);
    reader.start();
    await stepped.finishSentence();
    await stepped.finishSentence();
    expect(stepped.spoken).toEqual(["The work on e1 is done.", "Tests pass."]);
    expect(reader.reading.state.status).toBe("finished");
  });

  it("pauses without reading on, and resumes at the same sentence", async () => {
    const stepped = steppedVoice();
    const reader = new InCallReader(script, stepped.voice);
    reader.start();
    reader.dispatch({ type: "pause" });
    await stepped.finishSentence();
    expect(stepped.spoken).toEqual(["The work on e1 is done."]);
    reader.dispatch({ type: "resume" });
    expect(stepped.spoken).toEqual(["The work on e1 is done.", "The work on e1 is done."]);
  });

  it("skips the sentence being read and jumps to a card", async () => {
    const stepped = steppedVoice();
    const reader = new InCallReader(script, stepped.voice);
    reader.start();
    reader.dispatch({ type: "skip" });
    reader.dispatch({ type: "jump-to-card", card: 0 });
    await stepped.finishSentence();
    expect(stepped.spoken).toEqual(["The work on e1 is done.", "Tests pass.", "Tests", "All 12 tests pass."]);
  });

  it("pauses with the reason when the voice fails, leaving the text on screen", async () => {
    const stepped = steppedVoice();
    const reader = new InCallReader(script, stepped.voice);
    reader.start();
    await stepped.failSentence();
    expect(reader.reading.state.status).toBe("paused");
    expect(reader.reading.voiceError).toEqual({ kind: "engine-failed", code: "synthesis-failed" });
  });

  it("says there is no voice, paused, when the device has none", () => {
    const reader = new InCallReader(script, null);
    reader.start();
    expect(reader.reading.state.status).toBe("paused");
    expect(reader.reading.voiceError).toEqual({ kind: "no-voice" });
  });

  it("reads nothing after hang-up", async () => {
    const stepped = steppedVoice();
    const reader = new InCallReader(script, stepped.voice);
    reader.start();
    reader.stop();
    await stepped.finishSentence();
    expect(stepped.spoken).toEqual(["The work on e1 is done."]);
  });
});
