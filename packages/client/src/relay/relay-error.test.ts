import { errorBody } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { relayErrorFrom, retryAfterMs } from "./relay-error.js";

describe("a relay's refusal", () => {
  it("keeps how long the relay asked to wait (Retry-After in seconds)", async () => {
    const response = new Response(JSON.stringify(errorBody("rate_limited")), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": "3120" },
    });
    const error = await relayErrorFrom(response);
    expect({ code: error.code, status: error.status, retryAfterMs: error.retryAfterMs }).toEqual({
      code: "rate_limited",
      status: 429,
      retryAfterMs: 3_120_000,
    });
  });

  it("reads an HTTP date, and says nothing when there is no header or it is unreadable", async () => {
    const now = Date.parse("2026-12-07T01:00:00Z");
    expect(retryAfterMs("Mon, 07 Dec 2026 01:02:00 GMT", now)).toBe(120_000);
    expect(retryAfterMs("soon", now)).toBeNull();
    const error = await relayErrorFrom(new Response("Bad gateway", { status: 502 }));
    expect(error.retryAfterMs).toBeNull();
  });
});
