import type { CallRules, SealedReportPayload } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { CallRulesController, ruleProjects, withProjectRing } from "./call-rules-controller.js";

const RULES: CallRules = { gatherSeconds: 20, projects: { search: "round-up" }, quietSummaryAt: null };

function callFrom(report: Partial<SealedReportPayload["report"]>): { payload: SealedReportPayload } {
  return {
    payload: { report: { eventId: "e", source: "codex", occurredAt: "", text: "", ...report } } as never,
  };
}

describe("the rules' projects", () => {
  it("are the projects of the known calls (tracker project, else folder) and those with a rule, once each, sorted", () => {
    const calls = [
      callFrom({ cwd: "/home/ana/src/payments/" }),
      callFrom({ cwd: "/home/ana/src/docs" }),
      callFrom({
        source: "tracker",
        tracker: { workspaceId: "w", taskId: "t", issueId: "i", projectName: "Billing" },
      }),
      callFrom({ cwd: "/home/ana/other/docs" }),
      callFrom({}),
    ];
    expect(ruleProjects(calls, RULES)).toEqual(["Billing", "docs", "payments", "search"]);
  });

  it("sets a project's choice, and ring takes its rule away (every other project rings)", () => {
    const silent = withProjectRing(RULES, "docs", "silent");
    expect(silent.projects).toEqual({ search: "round-up", docs: "silent" });
    expect(withProjectRing(silent, "search", "ring").projects).toEqual({ docs: "silent" });
  });
});

describe("CallRulesController", () => {
  it("loads the computer's rules, saves them whole and says so, and shows the computer's refusal as a problem", async () => {
    const saved: CallRules[] = [];
    let refuses = false;
    const controller = new CallRulesController(async () => ({
      callRules: async () => RULES,
      saveCallRules: async (rules) => {
        if (refuses) throw Object.assign(new Error("no"), { code: "invalid_request" });
        saved.push(rules);
        return rules;
      },
    }));
    expect(await controller.load()).toBe(true);
    expect(controller.view.rules).toEqual(RULES);
    const next = { ...RULES, gatherSeconds: 0, quietSummaryAt: "18:30" };
    expect(await controller.save(next)).toBe(true);
    expect(saved).toEqual([next]);
    expect(controller.view).toMatchObject({ rules: next, notice: "saved", busy: null, problem: null });
    refuses = true;
    expect(await controller.save(RULES)).toBe(false);
    expect(controller.view.problem).not.toBeNull();
    expect(controller.view.rules).toEqual(next);
  });
});
