import { describe, expect, it } from "vitest";
import { FAILED_BRIEF_TITLE_MAX_CHARS, reportTitle } from "./failed-brief.js";

const base = { eventId: "e", source: "codex" as const, occurredAt: "2025-01-01T00:00:00Z" };

describe("reportTitle", () => {
  it("is the first non-empty line without markdown markers", () => {
    expect(reportTitle({ ...base, text: "\n\n## **Deploy done**\nmore" })).toBe("Deploy done");
    expect(reportTitle({ ...base, text: "- first item\n- second" })).toBe("first item");
  });

  it("is cut to the maximum length", () => {
    const title = reportTitle({ ...base, text: "x".repeat(500) });

    expect(Array.from(title)).toHaveLength(FAILED_BRIEF_TITLE_MAX_CHARS);
    expect(title.endsWith("…")).toBe(true);
  });

  it("falls back to the issue title for an empty report", () => {
    const tracker = { workspaceId: "w", taskId: "t", issueId: "i", issueTitle: "Fix login" };

    expect(reportTitle({ ...base, text: "  ", tracker })).toBe("Fix login");
    expect(reportTitle({ ...base, text: "" })).toBe("Report");
  });
});
