import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { callIdOfAddress, decideOpen } from "./open-request.js";

describe("opening a call from a clicked notification", () => {
  it("answers a call that rings or was missed", () => {
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "ringing" }))).toBe("answer");
    expect(
      decideOpen(recordFor({ eventId: "a" }, { state: "missed", missedReason: "outside-ringing-period" })),
    ).toBe("answer");
  });

  it("waits for a call not yet on the device, or still prepared or queued", () => {
    expect(decideOpen(undefined)).toBe("wait");
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "preparing" }))).toBe("wait");
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "queued" }))).toBe("wait");
  });

  it("leaves alone a call already in progress or over", () => {
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "in-call" }))).toBe("drop");
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "ended", outcome: "answered" }))).toBe("drop");
    expect(decideOpen(recordFor({ eventId: "a" }, { state: "acknowledged" }))).toBe("drop");
  });

  it("reads the call id from the address a notification opens", () => {
    expect(callIdOfAddress("https://relay.example/#call=evt_1%2B2")).toBe("evt_1+2");
    expect(callIdOfAddress("https://relay.example/")).toBeNull();
    expect(callIdOfAddress("https://relay.example/#pair=123456&key=rbk1_x")).toBeNull();
  });
});
