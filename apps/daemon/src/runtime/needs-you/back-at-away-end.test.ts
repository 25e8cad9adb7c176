import type { PermissionAnswer } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { endWhenNoLongerAway } from "./back-at-away-end.js";
import type { HeldAsk } from "./pending-asks.js";

function heldAsk(): HeldAsk & { ended: PermissionAnswer[] } {
  let resolve: (answer: PermissionAnswer) => void = () => undefined;
  const answer = new Promise<PermissionAnswer>((settle) => {
    resolve = settle;
  });
  const ended: PermissionAnswer[] = [];
  return {
    answer,
    ended,
    end(value) {
      ended.push(value);
      resolve(value);
    },
  };
}

describe("a held ask when a ring mode's away time ends", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("ends present at the first look after the person no longer counts as away, and then stops looking", async () => {
    const held = heldAsk();
    let away = true;
    const looks = vi.fn(async () => away);
    endWhenNoLongerAway(held, looks, 1000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(looks).toHaveBeenCalledTimes(3);
    expect(held.ended).toEqual([]);
    away = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(held.ended).toEqual([{ outcome: "present" }]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(looks).toHaveBeenCalledTimes(4);
  });

  it("keeps waiting when the presence cannot be read, and stops looking once answered otherwise", async () => {
    const held = heldAsk();
    const looks = vi.fn(async () => {
      throw new Error("EACCES");
    });
    endWhenNoLongerAway(held, looks, 1000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(held.ended).toEqual([]);
    held.end({ outcome: "expired" });
    await vi.advanceTimersByTimeAsync(5000);
    expect(looks).toHaveBeenCalledTimes(2);
  });
});
