import { PRESENCE_SET_FROM_A_DEVICE, PRESENCE_SET_HERE, type Presence } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { NEEDS_YOU_TEXTS } from "../i18n/texts/needs-you.js";
import { presenceSetByText } from "./presence-words.js";

const AT = "2026-11-27T08:00:00.000Z";
const formatAt = (at: Date) => at.toISOString().slice(11, 16);
const set = (changedBy: string | null, extra: Partial<Presence> = {}): Presence => ({
  away: true,
  changedAt: changedBy ? AT : null,
  changedBy,
  ...extra,
});

describe("who set a computer's presence, in the interface language", () => {
  it("names a ring mode, the computer or a phone in English and in Chinese", () => {
    const en = NEEDS_YOU_TEXTS.en;
    const zh = NEEDS_YOU_TEXTS.zh;
    const byMode = set('the ring mode "Sleep"', { changedByMode: "Sleep" });
    expect(presenceSetByText(byMode, en, formatAt)).toBe('Set by the ring mode "Sleep" at 08:00');
    expect(presenceSetByText(byMode, zh, formatAt)).toBe("由响铃模式「Sleep」于 08:00 设置");
    expect(presenceSetByText(set(PRESENCE_SET_HERE), zh, formatAt)).toBe("于 08:00 在电脑上设置");
    expect(presenceSetByText(set(PRESENCE_SET_FROM_A_DEVICE), en, formatAt)).toBe(
      "Set from a phone at 08:00",
    );
  });

  it("keeps the computer's own words for anything else, and says nothing for the default", () => {
    expect(presenceSetByText(set("Zoë's Pixel"), NEEDS_YOU_TEXTS.en, formatAt)).toBe(
      "Set by Zoë's Pixel at 08:00",
    );
    expect(presenceSetByText(set(null), NEEDS_YOU_TEXTS.en, formatAt)).toBeNull();
  });
});
