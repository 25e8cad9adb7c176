import type { StatusChanged, StatusMove } from "@ringback/tracker-client";
import { describe, expect, it } from "vitest";
import { loggedTimeOf } from "./logged-move.js";

const change: StatusChanged = {
  kind: "status",
  workspaceId: "ws",
  issueId: "issue",
  status: "blocked",
  statusCategory: "blocked",
  previousStatus: "in_progress",
  updatedAt: "2026-11-26T10:00:05Z",
  actor: { type: "agent", id: "claude" },
};

function move(createdAt: string, changes: Partial<StatusMove> = {}): StatusMove {
  return {
    id: `activity-${createdAt}`,
    actorType: "agent",
    actorId: "claude",
    from: "in_progress",
    to: "blocked",
    createdAt,
    ...changes,
  };
}

describe("the time the tracker logged a move seen in realtime", () => {
  it("is the log's, in the update's second or a second later", () => {
    expect(loggedTimeOf(change, [move("2026-11-26T10:00:05Z")])).toBe("2026-11-26T10:00:05Z");
    expect(loggedTimeOf(change, [move("2026-11-26T10:00:06Z")])).toBe("2026-11-26T10:00:06Z");
  });

  it("is that of the same move: not an earlier one, nor another actor's, status's or starting status's", () => {
    const moves = [
      move("2026-11-26T09:00:00Z"),
      move("2026-11-26T10:00:05Z", { actorId: "codex" }),
      move("2026-11-26T10:00:05Z", { to: "in_review" }),
      move("2026-11-26T10:00:05Z", { from: "todo" }),
      move("2026-11-26T10:00:06Z"),
    ];

    expect(loggedTimeOf(change, moves)).toBe("2026-11-26T10:00:06Z");
  });

  it("is unknown when the log has no entry for it yet, or only a much later one", () => {
    expect(loggedTimeOf(change, [])).toBeNull();
    expect(loggedTimeOf(change, [move("2026-11-26T10:01:00Z")])).toBeNull();
    expect(loggedTimeOf({ ...change, updatedAt: "" }, [move("2026-11-26T10:00:05Z")])).toBeNull();
  });
});
