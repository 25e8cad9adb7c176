import { describe, expect, it } from "vitest";
import type { DaemonLocation } from "../daemon-call/daemon-location.js";
import { describePermissionResult } from "./describe-permission-outcome.js";

const daemon: DaemonLocation = { dataDir: "/home/dev/.ringback", port: 8790, key: "k" };
const WAIT_MS = 315_000;

describe("describePermissionResult says what happened, what the agent does now, and what to do", () => {
  it("for each decision", () => {
    expect(
      describePermissionResult(
        { kind: "decided", decision: { verdict: "allow", reason: null, decidedOn: "Pixel 8" } },
        "claude-code",
        daemon,
        WAIT_MS,
      ),
    ).toBe("allowed: Pixel 8 allowed it once; Claude Code goes on");
    expect(
      describePermissionResult(
        { kind: "decided", decision: { verdict: "deny", reason: "Not now", decidedOn: "Pixel 8" } },
        "codex",
        daemon,
        WAIT_MS,
      ),
    ).toBe('denied: Pixel 8 denied it ("Not now"); Codex was told so and does not run it');
  });

  it("for each reason the daemon gives no decision", () => {
    const line = (outcome: "present" | "expired" | "not-linked" | "failed") =>
      describePermissionResult({ kind: "no-decision", outcome }, "codex", daemon, WAIT_MS);
    expect(line("present")).toContain("`ringback away on`");
    expect(line("expired")).toBe("no decision: nobody answered the call in time, so Codex asks you as usual");
    expect(line("not-linked")).toBe(
      "not asked: the daemon has no relay account to reach your phone, so Codex asks you as usual; link it with `ringback login --server <your relay>` and `ringback pair`",
    );
    expect(line("failed")).toBe(
      "not asked: the daemon could not raise the call, so Codex asks you as usual; see the daemon's log, or run `ringback doctor`",
    );
  });

  it("for an answer without the daemon's proof: nothing was allowed", () => {
    const outcome = { kind: "answered", status: 200, isProven: false } as const;
    expect(describePermissionResult({ kind: "unproven", outcome }, "claude-code", daemon, WAIT_MS)).toBe(
      "no decision: what answered on 127.0.0.1:8790 (200) did not prove it is your Ringback daemon: a daemon older " +
        "than this hook (update it), a daemon with another key than /home/dev/.ringback/local-api.key, or another " +
        "program on this port (it never got the key); see the daemon's log, or run `ringback doctor` (nothing was " +
        "allowed: Claude Code asks you as usual)",
    );
  });

  it("for an answer that is not one, and for a daemon that did not answer", () => {
    expect(
      describePermissionResult({ kind: "bad-answer", problem: "it is not JSON" }, "codex", daemon, WAIT_MS),
    ).toBe(
      "no decision: the daemon's answer is not a permission answer (it is not JSON), so nothing was allowed and Codex asks you as usual; see the daemon's log, or run `ringback doctor`",
    );
    expect(
      describePermissionResult(
        { kind: "not-answered", outcome: { kind: "timed-out" } },
        "codex",
        daemon,
        WAIT_MS,
      ),
    ).toBe(
      "not asked: the daemon on 127.0.0.1:8790 did not answer within the hook's 315 s wait: see the daemon's log, or run `ringback doctor` (Codex asks you as usual)",
    );
  });
});
