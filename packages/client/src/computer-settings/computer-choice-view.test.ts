import type { DeviceInfo } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { computerChoiceView } from "./computer-choice-view.js";

function computer(id: string, online: boolean): DeviceInfo {
  const at = "2026-03-02T10:00:00.000Z";
  return { id, name: `PC ${id}`, kind: "computer", createdAt: at, lastSeenAt: at, online, isCurrent: false };
}

describe("the computer choice", () => {
  it("waits for the relay's list", () => {
    expect(computerChoiceView({ computers: null, computerId: null, watchedWorkspaces: [] })).toEqual({
      state: "loading",
    });
  });

  it("says there is none, so the screen explains how to add one", () => {
    expect(computerChoiceView({ computers: [], computerId: null, watchedWorkspaces: [] })).toEqual({
      state: "none",
    });
  });

  it("lists several computers with their online state and the chosen one, and offers the choice", () => {
    const view = computerChoiceView({
      computers: [computer("a", false), computer("b", true)],
      computerId: "b",
      watchedWorkspaces: [],
    });
    expect(view).toMatchObject({
      state: "listed",
      canChoose: true,
      computers: [
        { id: "a", isOnline: false, isChosen: false },
        { id: "b", isOnline: true, isChosen: true },
      ],
    });
  });

  it("offers no choice with one computer", () => {
    const view = computerChoiceView({
      computers: [computer("a", true)],
      computerId: "a",
      watchedWorkspaces: [],
    });
    expect(view).toMatchObject({ state: "listed", canChoose: false });
  });
});
