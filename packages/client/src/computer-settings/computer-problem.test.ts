import { E2eError } from "@ringback/e2e-crypto";
import { RingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { NoComputerError } from "../daemon/computer-choice.js";
import { COMPUTER_TEXTS } from "../i18n/texts/computer.js";
import { RelayError } from "../relay/relay-error.js";
import { computerProblemOf, computerProblemText } from "./computer-problem.js";

describe("problems of Settings › Your computer", () => {
  it.each([
    [new NoComputerError(), "no-computer"],
    [new RingbackError("computer_offline"), "computer-offline"],
    [new RingbackError("computer_timeout"), "computer-offline"],
    [new RingbackError("undecryptable_request"), "key-differs"],
    [new RingbackError("not_relayed"), "not-relayed"],
    [new RingbackError("invalid_tracker_token"), "invalid-tracker-token"],
    [new RingbackError("tracker_not_configured"), "tracker-not-configured"],
    [new RingbackError("workspace_not_found"), "workspace-not-found"],
    [new RingbackError("tracker_unavailable"), "tracker-unavailable"],
    [new RingbackError("invalid_llm_settings"), "invalid-llm-settings"],
    [new RingbackError("llm_key_required"), "llm-key-required"],
    [new E2eError("passphrase_too_short", "short"), "phrase-too-short"],
    [new RelayError(null, null, "fetch failed"), "relay-unreachable"],
  ])("reads %s as %s", (error, kind) => {
    expect(computerProblemOf(error).kind).toBe(kind);
  });

  it("keeps the computer's own sentence for anything else", () => {
    const problem = computerProblemOf(new RingbackError("internal_error", "disk full"));
    expect(problem).toEqual({ kind: "other", detail: "disk full" });
    expect(computerProblemText(problem, COMPUTER_TEXTS.en)).toBe("Your computer could not do it: disk full");
  });

  it("says an invalid token and an offline computer plainly, in both interface languages", () => {
    const invalid = computerProblemOf(new RingbackError("invalid_tracker_token"));
    expect(computerProblemText(invalid, COMPUTER_TEXTS.en)).toBe("The tracker token is not valid.");
    expect(computerProblemText(invalid, COMPUTER_TEXTS.zh)).toBe("追踪器令牌无效。");
    const offline = computerProblemOf(new RingbackError("computer_offline"));
    expect(computerProblemText(offline, COMPUTER_TEXTS.en)).toContain("offline");
  });
});
