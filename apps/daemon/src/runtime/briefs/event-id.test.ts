import { EventId } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { mintEventId } from "./event-id.js";

const turn = { source: "claude-code", sessionId: "s1", turnId: "p1", text: "Done." } as const;

describe("mintEventId", () => {
  it("gives one agent turn one id, whatever its text", () => {
    expect(mintEventId(turn)).toBe(mintEventId({ ...turn, text: "Done, edited." }));
    expect(mintEventId(turn)).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(EventId.safeParse(mintEventId(turn)).success).toBe(true);
  });

  it("tells turns, sessions and agent kinds apart", () => {
    const ids = new Set([
      mintEventId(turn),
      mintEventId({ ...turn, turnId: "p2" }),
      mintEventId({ ...turn, sessionId: "s2" }),
      mintEventId({ ...turn, source: "codex" }),
    ]);
    expect(ids.size).toBe(4);
  });

  it("uses the text when there is no turn id", () => {
    const { turnId: _none, ...withoutTurn } = turn;
    expect(mintEventId(withoutTurn)).toBe(mintEventId(withoutTurn));
    expect(mintEventId(withoutTurn)).not.toBe(mintEventId({ ...withoutTurn, text: "Other." }));
  });
});
