import { FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { payloadFor } from "../../test/fixtures.js";
import { briefScript, scriptSentences } from "./brief-script.js";
import { currentSentence, READER_START, reduceReader } from "./reader.js";

describe("brief script", () => {
  it("reads the spoken paragraph, then the supplementary one with its heading, with the form of address", () => {
    const payload = payloadFor({
      eventId: "e1",
      brief: {
        spoken: `${FORM_OF_ADDRESS_PLACEHOLDER}, the release is ready. One test fails.`,
        supplementary: { heading: "Also", text: "The disk is 91% full." },
      },
    });
    const script = briefScript(payload, { formOfAddress: "Sam" });
    expect(script.main.map((segment) => segment.kind)).toEqual(["spoken", "supplementary"]);
    expect(script.main.flatMap((segment) => segment.sentences)).toEqual([
      "Sam, the release is ready.",
      "One test fails.",
      "Also",
      "The disk is 91% full.",
    ]);
    expect(script.cards[0]?.sentences).toEqual(["Tests", "All 12 tests pass.", "Nothing is flaky."]);
    expect(script.openQuestions).toEqual(["Ship it today?"]);
  });

  it("reads the original text aloud when the brief failed, and keeps it readable", () => {
    const payload = payloadFor({ eventId: "e1", isBriefFailed: true, text: "# Done\nFixed **two** bugs." });
    const script = briefScript(payload, { formOfAddress: null });
    expect(script.isBriefFailed).toBe(true);
    expect(script.main).toEqual([{ kind: "original", title: null, sentences: ["Done", "Fixed two bugs."] }]);
    expect(script.cards).toEqual([]);
    expect(script.originalText).toBe("# Done\nFixed **two** bugs.");
    expect(script.title).toBe("Done");
  });

  it("prepares every sentence, main part and cards", () => {
    const script = briefScript(payloadFor({ eventId: "e1" }), { formOfAddress: null });
    expect(scriptSentences(script)).toEqual([
      "The work on e1 is done.",
      "Tests pass.",
      "Tests",
      "All 12 tests pass.",
      "Nothing is flaky.",
    ]);
  });
});

describe("in-call reading", () => {
  const script = briefScript(payloadFor({ eventId: "e1" }), { formOfAddress: null });

  it("goes sentence by sentence and finishes after the main part", () => {
    let state = READER_START;
    expect(currentSentence(script, state)).toBe("The work on e1 is done.");
    state = reduceReader(script, state, { type: "sentence-done" });
    expect(currentSentence(script, state)).toBe("Tests pass.");
    state = reduceReader(script, state, { type: "sentence-done" });
    expect(state.status).toBe("finished");
    expect(currentSentence(script, state)).toBeNull();
  });

  it("pauses and resumes at the same sentence", () => {
    let state = reduceReader(script, READER_START, { type: "pause" });
    expect(currentSentence(script, state)).toBeNull();
    state = reduceReader(script, state, { type: "sentence-done" });
    state = reduceReader(script, state, { type: "resume" });
    expect(currentSentence(script, state)).toBe("The work on e1 is done.");
  });

  it("skips to the next sentence and goes back to the previous one", () => {
    let state = reduceReader(script, READER_START, { type: "skip" });
    expect(currentSentence(script, state)).toBe("Tests pass.");
    state = reduceReader(script, state, { type: "back" });
    expect(currentSentence(script, state)).toBe("The work on e1 is done.");
  });

  it("jumps to a card and reads it", () => {
    const state = reduceReader(script, READER_START, { type: "jump-to-card", card: 0 });
    expect(currentSentence(script, state)).toBe("Tests");
    expect(reduceReader(script, state, { type: "jump-to-card", card: 7 })).toBe(state);
  });
});
