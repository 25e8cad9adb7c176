import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { ALL_TAB, callsPageView, missedIdsInTab } from "./calls-page.js";

const missed = { state: "missed" as const, missedReason: "outside-ringing-period" as const };
const ended = { state: "ended" as const, outcome: "answered" as const };

const records = [
  recordFor({ eventId: "web-low", projectName: "Web", priority: "low" }, missed),
  recordFor({ eventId: "api-urgent", projectName: "API", priority: "urgent" }, missed),
  recordFor({ eventId: "local-agent", source: "claude-code" }, missed),
  recordFor({ eventId: "tracker-no-project", source: "tracker", priority: "high" }, missed),
  recordFor({ eventId: "web-high", projectName: "Web", priority: "high" }, ended),
  recordFor({ eventId: "api-ack", projectName: "API", priority: "medium" }, { state: "acknowledged" }),
  recordFor({ eventId: "ringing", projectName: "API" }, { state: "ringing" }),
];

function ids(groups: readonly { calls: readonly { eventId: string }[] }[]): string[][] {
  return groups.map((group) => group.calls.map((call) => call.eventId));
}

describe("calls page", () => {
  it("has an 'all' tab and one tab per tracker project, by name", () => {
    const view = callsPageView(records, ALL_TAB);
    expect(view.tabs.map((tab) => tab.project?.name ?? tab.key)).toEqual(["all", "API", "Web"]);
  });

  it("does not count a local agent's directory or a tracker issue without a project as a project", () => {
    const view = callsPageView([recordFor({ eventId: "local", source: "claude-code" }, missed)], ALL_TAB);
    expect(view.tabs).toHaveLength(1);
  });

  it("puts missed calls on top and history below, leaving waiting calls out", () => {
    const view = callsPageView(records, ALL_TAB);
    expect(ids(view.missed).flat().sort()).toEqual([
      "api-urgent",
      "local-agent",
      "tracker-no-project",
      "web-low",
    ]);
    expect(ids(view.history).flat().sort()).toEqual(["api-ack", "web-high"]);
  });

  it("groups both lists by project name in 'all', with a final 'other' group", () => {
    const view = callsPageView(records, ALL_TAB);
    expect(view.missed.map((group) => group.project?.name ?? "other")).toEqual(["API", "Web", "other"]);
    expect(ids(view.missed)).toEqual([["api-urgent"], ["web-low"], ["tracker-no-project", "local-agent"]]);
    expect(view.history.map((group) => group.project?.name ?? "other")).toEqual(["API", "Web"]);
  });

  it("shows only the project's calls in its tab", () => {
    const view = callsPageView(records, callsPageView(records, ALL_TAB).tabs[2]!.key);
    expect(ids(view.missed)).toEqual([["web-low"]]);
    expect(ids(view.history)).toEqual([["web-high"]]);
  });

  it("orders by priority urgent, high, medium, low, none, then update time newest first", () => {
    const list = [
      recordFor({ eventId: "none", projectName: "P", priority: "none" }, missed),
      recordFor({ eventId: "low", projectName: "P", priority: "low" }, missed),
      recordFor(
        {
          eventId: "medium-old",
          projectName: "P",
          priority: "medium",
          issueUpdatedAt: "2026-03-01T08:00:00Z",
        },
        missed,
      ),
      recordFor(
        {
          eventId: "medium-new",
          projectName: "P",
          priority: "medium",
          issueUpdatedAt: "2026-03-01T09:00:00Z",
        },
        missed,
      ),
      recordFor({ eventId: "high", projectName: "P", priority: "high" }, missed),
      recordFor({ eventId: "urgent", projectName: "P", priority: "urgent" }, missed),
    ];
    expect(ids(callsPageView(list, ALL_TAB).missed)).toEqual([
      ["urgent", "high", "medium-new", "medium-old", "low", "none"],
    ]);
  });

  it("falls back to 'all' when the chosen project has no calls left", () => {
    expect(callsPageView(records, "ws1/gone").tab).toBe(ALL_TAB);
  });

  it("acknowledge-all takes the missed calls of the current tab only", () => {
    const webTab = callsPageView(records, ALL_TAB).tabs[2]!.key;
    expect(missedIdsInTab(records, webTab)).toEqual(["web-low"]);
    expect(missedIdsInTab(records, ALL_TAB).sort()).toEqual([
      "api-urgent",
      "local-agent",
      "tracker-no-project",
      "web-low",
    ]);
  });
});
