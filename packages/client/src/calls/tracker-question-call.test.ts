import { describe, expect, it } from "vitest";
import { needsYouFixture, recordFor, T0, trackerQuestionFixture } from "../../test/fixtures.js";
import { ringtoneItemOf } from "../ringtones/ringtone-items.js";
import { sortCalls } from "./call-order.js";
import { isNeedsYou } from "./needs-you.js";
import { needsYouStatus } from "./needs-you-view.js";
import { ringsAsNeedsYou, trackerQuestionOf } from "./tracker-question-call.js";

describe("a tracker agent's question call", () => {
  const question = recordFor(trackerQuestionFixture("evt_question"));

  it("rings and shows as needs you, with the needs-you tone", () => {
    expect(ringsAsNeedsYou(question)).toBe(true);
    expect(ringtoneItemOf(question)).toBe("needsYou");
    expect(trackerQuestionOf(question)).toMatchObject({ trigger: "mention", commentId: "c1" });
  });

  it("is answered with a reply, not with Allow once or Deny", () => {
    expect(isNeedsYou(question)).toBe(false);
    expect(needsYouStatus(question, "phone", T0)).toBeNull();
  });

  it("comes before finished calls of any priority, as a permission ask does", () => {
    const urgent = recordFor({ eventId: "evt_urgent", priority: "urgent" });
    expect(sortCalls([urgent, question]).map((record) => record.eventId)).toEqual([
      "evt_question",
      "evt_urgent",
    ]);
  });

  it("a finished call and a permission ask are told apart from it", () => {
    const finished = recordFor({ eventId: "evt_done", source: "tracker" });
    const ask = recordFor(needsYouFixture("needs_a"));
    expect(ringsAsNeedsYou(finished)).toBe(false);
    expect(trackerQuestionOf(ask)).toBeNull();
    expect(ringsAsNeedsYou(ask)).toBe(true);
  });
});
