import { describe, expect, it } from "vitest";
import { serverSentDataLines } from "./completion-stream.js";

const STREAM = [
  ": keep-alive\n\n",
  'data: {"choices":[{"delta":{"content":"All "}}]}\n\n',
  'data:{"choices":[{"delta":{"content":"green."}}]}\r\n\r\n',
  "event: ping\ndata:   \n\n",
  "data: [DONE]\n\n",
].join("");

function payloadsInPieces(text: string, size: number): string[] {
  const lines = serverSentDataLines();
  const payloads: string[] = [];
  for (let start = 0; start < text.length; start += size)
    payloads.push(...lines.push(text.slice(start, start + size)));
  return [...payloads, ...lines.end()];
}

describe("server-sent data lines", () => {
  it("gives each data payload once, however the text is cut, and drops comments and empty data", () => {
    const expected = [
      '{"choices":[{"delta":{"content":"All "}}]}',
      '{"choices":[{"delta":{"content":"green."}}]}',
      "[DONE]",
    ];
    for (const size of [1, 3, 7, 64, STREAM.length]) expect(payloadsInPieces(STREAM, size)).toEqual(expected);
  });

  it("reads each data line of one event as its own payload, and an event the stream closed without a blank line", () => {
    const lines = serverSentDataLines();
    expect(lines.push('data: {"a":1}\ndata: {"b":2}\n\ndata: [DONE]')).toEqual(['{"a":1}', '{"b":2}']);
    expect(lines.end()).toEqual(["[DONE]"]);
  });
});
