import { describe, expect, it } from "vitest";
import { logSafe, logSafeLine } from "../src/index.js";

describe("logSafe", () => {
  it("escapes line breaks, escapes, controls, non-ASCII and backslashes, and cuts long values", () => {
    expect(logSafe("a\nb\r\x1b[31m\u2028\u202e\\x")).toBe("a\\nb\\r\\x1b[31m\\u2028\\u202e\\\\x");
    expect(logSafe("plain /v1/calls/ev_1-2 ok")).toBe("plain /v1/calls/ev_1-2 ok");
    expect(logSafe("abcdef", 3)).toBe("abc...(+3 chars)");
    expect(logSafe("\x7f\x00\t")).toBe("\\x7f\\x00\\t");
  });

  it("escapes a whole line's non-printable characters but keeps its backslashes", () => {
    expect(logSafeLine("a\\b\nc\x1b")).toBe("a\\b\\nc\\x1b");
  });
});
