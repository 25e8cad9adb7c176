import { PermissionAnswer } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { agentPermissionAnswer, DEFAULT_DENY_MESSAGE } from "./agent-permission-answer.js";
import { parsePermissionAnswer, permissionResultOf } from "./permission-answer.js";

const decision = { outcome: "decided", verdict: "allow", reason: null, decidedOn: "Pixel 8" };

describe("parsePermissionAnswer", () => {
  it("takes a whole decision, as protocol's PermissionAnswer does", () => {
    for (const answer of [decision, { ...decision, verdict: "deny", reason: "Not now." }]) {
      expect(PermissionAnswer.parse(answer)).toMatchObject(answer);
      expect(parsePermissionAnswer(JSON.stringify(answer))).toEqual({
        kind: "decided",
        decision: { verdict: answer.verdict, reason: answer.reason, decidedOn: "Pixel 8" },
      });
    }
  });

  it("takes each reason for no decision", () => {
    for (const outcome of ["present", "expired", "not-linked", "failed"]) {
      expect(parsePermissionAnswer(JSON.stringify({ outcome }))).toEqual({ kind: "no-decision", outcome });
    }
  });

  it("refuses everything protocol refuses, and never as a decision", () => {
    const refused = [
      "",
      "allow",
      "null",
      '["allow"]',
      JSON.stringify({ outcome: "decided", verdict: "allow" }),
      JSON.stringify({ ...decision, verdict: "ALLOW" }),
      JSON.stringify({ ...decision, reason: 3 }),
      JSON.stringify({ ...decision, reason: "r".repeat(2001) }),
      JSON.stringify({ ...decision, decidedOn: undefined }),
      JSON.stringify({ ...decision, decidedOn: "d".repeat(201) }),
      JSON.stringify({ outcome: "allow" }),
      JSON.stringify({ verdict: "allow" }),
    ];
    for (const body of refused) {
      expect(PermissionAnswer.safeParse(body === "" ? undefined : safeJson(body)).success).toBe(false);
      expect(parsePermissionAnswer(body).kind).toBe("bad-answer");
    }
  });
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe("permissionResultOf", () => {
  it("reads only a 200's whole body", () => {
    const body = JSON.stringify(decision);
    expect(permissionResultOf({ kind: "answered", status: 200, isProven: true, body }).kind).toBe("decided");
    expect(permissionResultOf({ kind: "answered", status: 202, isProven: true, body }).kind).toBe(
      "not-answered",
    );
    expect(permissionResultOf({ kind: "answered", status: 200, isProven: true })).toEqual({
      kind: "bad-answer",
      problem: "it was cut short",
    });
    expect(permissionResultOf({ kind: "refused" }).kind).toBe("not-answered");
  });

  it("never takes a decision from an answer without the daemon's proof, whatever it says", () => {
    const body = JSON.stringify(decision);
    const outcome = { kind: "answered", status: 200, isProven: false, body } as const;
    expect(permissionResultOf(outcome)).toEqual({ kind: "unproven", outcome });
  });
});

describe("agentPermissionAnswer", () => {
  it("prints the agents' PermissionRequest output: an allow, or a deny with the reason or a default", () => {
    expect(agentPermissionAnswer({ verdict: "allow", reason: null, decidedOn: "d" })).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n',
    );
    expect(
      JSON.parse(agentPermissionAnswer({ verdict: "deny", reason: " Use the staging DB. ", decidedOn: "d" })),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "Use the staging DB." },
      },
    });
    for (const reason of [null, "", "  "]) {
      const printed = JSON.parse(agentPermissionAnswer({ verdict: "deny", reason, decidedOn: "d" }));
      expect(printed.hookSpecificOutput.decision).toEqual({
        behavior: "deny",
        message: DEFAULT_DENY_MESSAGE,
      });
    }
  });
});
