import { NOTIFICATION_TEXTS } from "@ringback/client/texts";
import { describe, expect, it } from "vitest";
import { fallbackNotice, settleWithin } from "./push-fallback.js";

describe("a push the worker cannot work out", () => {
  it("is done with the step its handling answered in time", async () => {
    expect(await settleWithin(Promise.resolve("shown"), 1_000)).toEqual({ kind: "done", step: "shown" });
  });

  it("falls back when the handling fails, saying why", async () => {
    expect(await settleWithin(Promise.reject(new TypeError("storage broke")), 1_000)).toEqual({
      kind: "fallback",
      why: "TypeError: storage broke",
    });
  });

  it("falls back when the handling does not answer in time", async () => {
    const never = new Promise<string>(() => undefined);
    expect(await settleWithin(never, 20)).toEqual({ kind: "fallback", why: "no answer within 20 ms" });
  });

  it("rings the plain call under the call's tag, in the browser's language, with Answer and Later", () => {
    expect(fallbackNotice("ev1", ["zh-CN"])).toEqual({
      kind: "show",
      eventId: "ev1",
      title: NOTIFICATION_TEXTS.zh.genericCallTitle,
      body: NOTIFICATION_TEXTS.zh.genericCallBody,
      tag: "ringback-call-ev1",
      actions: [
        { action: "answer", title: NOTIFICATION_TEXTS.zh.answerAction },
        { action: "later", title: NOTIFICATION_TEXTS.zh.laterAction },
      ],
    });
    expect(fallbackNotice(null, ["fr-FR"]).body).toBe(NOTIFICATION_TEXTS.en.genericCallBody);
  });
});
