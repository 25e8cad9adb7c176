import { NOTIFICATION_TEXTS } from "@ringback/client/texts";
import { describe, expect, it } from "vitest";
import {
  ANSWER_ACTION,
  callNotificationOptions,
  clickIntent,
  LATER_ACTION,
  RING_VIBRATION_PATTERN_MS,
  ringingActions,
} from "./call-notification.js";

const notice = { eventId: "ev1", title: "Invoice rounding", body: "It is fixed.", tag: "ringback-call-ev1" };

describe("a call's notification options", () => {
  it("ring: Answer and Later, a vibration, renotify, and it stays until acted on", () => {
    const actions = ringingActions(NOTIFICATION_TEXTS.en);
    expect(callNotificationOptions({ kind: "show", ...notice, actions })).toEqual({
      body: "It is fixed.",
      tag: "ringback-call-ev1",
      renotify: true,
      silent: false,
      requireInteraction: true,
      actions: [
        { action: "answer", title: "Answer" },
        { action: "later", title: "Later" },
      ],
      vibrate: RING_VIBRATION_PATTERN_MS,
      data: { eventId: "ev1" },
    });
    expect(RING_VIBRATION_PATTERN_MS.length).toBeGreaterThan(0);
  });

  it("missed: silent, without actions or a vibration, and it may go away on its own", () => {
    const options = callNotificationOptions({ kind: "missed", ...notice, actions: [] });
    expect(options).toMatchObject({ silent: true, renotify: false, requireInteraction: false, actions: [] });
    expect(options).not.toHaveProperty("vibrate");
  });

  it("names the actions in Chinese when the interface is Chinese", () => {
    expect(ringingActions(NOTIFICATION_TEXTS.zh).map((action) => action.title)).toEqual(["接听", "稍后"]);
  });
});

describe("a click on a call's notification", () => {
  it("sets the call aside on Later, and opens the app on Answer or a plain click", () => {
    expect(clickIntent(LATER_ACTION)).toBe("set-aside");
    expect(clickIntent(ANSWER_ACTION)).toBe("open");
    expect(clickIntent("")).toBe("open");
  });
});
