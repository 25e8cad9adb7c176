import { ErrorBody } from "@ringback/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";

let daemon: InProcessDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

describe("POST /local/login with a pairing link it cannot use", () => {
  it.each([
    ["a code that is not 12 digits", "https://relay.example/#pair=123&key=rbk1_x", "code is not 12 digits"],
    [
      "a key that is not an rbk1_ key",
      `https://relay.example/#pair=${"1".repeat(12)}&key=nope`,
      "not an rbk1_ key",
    ],
  ])("answers 400 invalid_request for %s, in the link's words", async (_, pairing, words) => {
    daemon = await startInProcessDaemon();
    const response = await daemon.request("/local/login", { body: { pairing } });
    expect(response.status).toBe(400);
    const body = ErrorBody.parse(await response.json());
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain(words);
  });

  it("answers 400 invalid_request for a link's relay address with credentials", async () => {
    daemon = await startInProcessDaemon();
    const key = `rbk1_${"A".repeat(43)}`;
    const pairing = `https://relay.example/#pair=${"1".repeat(12)}&key=${key}&server=${encodeURIComponent("https://me:pw@relay.example")}`;
    const response = await daemon.request("/local/login", { body: { pairing } });
    expect(response.status).toBe(400);
    expect(ErrorBody.parse(await response.json()).error).toEqual({
      code: "invalid_request",
      message: "The relay address must be an http(s) address.",
    });
  });
});
