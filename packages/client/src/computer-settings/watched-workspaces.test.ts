import { describe, expect, it } from "vitest";
import { COMPUTER_TEXTS } from "../i18n/texts/computer.js";
import { watchedWorkspaceRows, workspaceStateText } from "./watched-workspaces.js";

describe("watched workspaces with their connection status", () => {
  const saved = {
    settings: { workspaces: ["ws1", "ws2", "ws3"], tokenHint: "****abcd" },
    status: {
      workspaces: [
        { workspaceId: "ws2", state: "error" as const, error: "401 from the tracker", connectedAt: null },
        {
          workspaceId: "ws1",
          state: "connected" as const,
          error: null,
          connectedAt: "2026-03-02T10:00:00.000Z",
        },
      ],
    },
  };

  it("names each watched workspace when a listing told its name, and gives its status", () => {
    const rows = watchedWorkspaceRows(saved, { ws1: "Ringback" });
    expect(rows).toEqual([
      { id: "ws1", name: "Ringback", state: "connected", error: null },
      { id: "ws2", name: "ws2", state: "error", error: "401 from the tracker" },
      { id: "ws3", name: "ws3", state: null, error: null },
    ]);
    expect(rows.map((row) => workspaceStateText(row, COMPUTER_TEXTS.en))).toEqual([
      "connected",
      "error: 401 from the tracker",
      "no status yet",
    ]);
  });

  it("has no rows when no token is saved", () => {
    expect(watchedWorkspaceRows({ settings: null, status: { workspaces: [] } }, {})).toEqual([]);
    expect(watchedWorkspaceRows(null, {})).toEqual([]);
  });
});
