import { CallRules } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { projectOf } from "./call-project.js";
import { ringOf } from "./call-ring.js";

const rules = CallRules.parse({ projects: { docs: "silent", search: "round-up", payments: "ring" } });

describe("projectOf", () => {
  it("names a call by its tracker project, else by the last part of its working directory", () => {
    expect(projectOf({ cwd: "/home/ana/src/docs/" })).toBe("docs");
    expect(
      projectOf({
        cwd: "/home/ana/src/other",
        tracker: { workspaceId: "w", taskId: "t", issueId: "i", projectName: "Payments" },
      }),
    ).toBe("Payments");
    expect(
      projectOf({ tracker: { workspaceId: "w", taskId: "t", issueId: "i", projectName: null } }),
    ).toBeNull();
  });
});

describe("ringOf", () => {
  it("keeps the calls of round-up and silent projects quiet, and rings every other project's", () => {
    expect(ringOf({ cwd: "/work/docs" }, rules)).toBe("quiet");
    expect(ringOf({ cwd: "/work/search" }, rules)).toBe("quiet");
    expect(ringOf({ cwd: "/work/payments" }, rules)).toBe("ring");
    expect(ringOf({ cwd: "/work/unnamed" }, rules)).toBe("ring");
    expect(ringOf({}, rules)).toBe("ring");
  });
});
