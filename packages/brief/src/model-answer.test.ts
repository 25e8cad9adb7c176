import { describe, expect, it } from "vitest";
import { emptyCompletion } from "./completion-stream.js";
import { streamedAnswerContent, wholeAnswerContent } from "./model-answer.js";

function cutStream(content: string) {
  return streamedAnswerContent({ ...emptyCompletion(), content, finishReason: "length", isDone: true }, 512);
}

describe("an answer cut off at its output limit", () => {
  it("blames thinking only when the model wrote no answer", () => {
    const result = cutStream("");
    expect(result).toMatchObject({ ok: false, failure: "output_limit" });
    const error = result.ok ? "" : result.error;
    expect(error).toContain("cut off at the output limit of 512 tokens. It spent them thinking");
    expect(error).toContain("ringback model limits --output-tokens");
  });

  it("says an answer that ran on is a model or a stuck server that does not stop, not thinking", () => {
    const streamed = cutStream('{"title": "Login fixed", "spoken": "The login the login the login');
    const whole = wholeAnswerContent(
      JSON.stringify({ choices: [{ finish_reason: "length", message: { content: "again and again" } }] }),
      512,
    );
    for (const result of [streamed, whole]) {
      const error = result.ok ? "" : result.error;
      expect(error).toContain(
        "Its answer ran on without finishing (a model that repeats itself, or a server that is stuck: restart it)",
      );
      expect(error).not.toContain("thinking");
    }
  });
});
