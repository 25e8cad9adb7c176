import { describe, expect, it } from "vitest";
import { ChatStreamParser } from "./chat-stream-parser.js";
import { ModelAnswerError, type ModelProblem } from "./model-problem.js";

const chunk = (content: string) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] })}\n\n`;
const stream = [
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant" } }] })}\n\n`,
  ": keep-alive\n\n",
  chunk("The tests "),
  chunk("pass, "),
  chunk("all 42."),
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
  "data: [DONE]\n\n",
].join("");

/** The problem a push rejects with. */
function problemOf(push: () => unknown): ModelProblem {
  try {
    push();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelAnswerError);
    return (error as ModelAnswerError).problem;
  }
  throw new Error("The push did not reject.");
}

function parseInPieces(text: string, size: number): string {
  const parser = new ChatStreamParser();
  let answer = "";
  for (let start = 0; start < text.length; start += size)
    answer += parser.push(text.slice(start, start + size)).join("");
  answer += parser.finish().join("");
  return answer;
}

describe("the streaming answer parser", () => {
  it("collects the content deltas and stops at [DONE]", () => {
    const parser = new ChatStreamParser();
    expect(parser.push(stream)).toEqual(["The tests ", "pass, ", "all 42."]);
    expect(parser.isDone).toBe(true);
    expect(parser.push(chunk("after the end"))).toEqual([]);
  });

  it("gives the same answer however the bytes are cut", () => {
    for (const size of [1, 2, 3, 7, 16, 64])
      expect(parseInPieces(stream, size)).toBe("The tests pass, all 42.");
  });

  it("reads CRLF and CR line ends, and data split over several lines", () => {
    const crlf = stream.replaceAll("\n", "\r\n");
    expect(parseInPieces(crlf, 5)).toBe("The tests pass, all 42.");
    expect(parseInPieces(stream.replaceAll("\n", "\r"), 3)).toBe("The tests pass, all 42.");
    const split = 'data: {"choices":[{"delta":\ndata: {"content":"Hi"}}]}\n\n';
    expect(new ChatStreamParser().push(split)).toEqual(["Hi"]);
  });

  it("reads a last event that the stream closed without a blank line", () => {
    const parser = new ChatStreamParser();
    expect(parser.push(chunk("One. ").trimEnd())).toEqual([]);
    expect(parser.finish()).toEqual(["One. "]);
  });

  it("rejects an error sent mid-stream with the model's own message, or without one", () => {
    const parser = new ChatStreamParser();
    expect(
      problemOf(() =>
        parser.push(`${chunk("Half")}data: {"error":{"message":"context length exceeded"}}\n\n`),
      ),
    ).toEqual({ kind: "failed-mid-answer", detail: "context length exceeded" });
    expect(problemOf(() => new ChatStreamParser().push('data: {"error":{"code":500}}\n\n'))).toEqual({
      kind: "failed-mid-answer",
      detail: null,
    });
  });

  it("rejects a stream that is not JSON chunks", () => {
    expect(problemOf(() => new ChatStreamParser().push("data: <html>\n\n"))).toEqual({
      kind: "stream-not-json",
    });
  });
});
