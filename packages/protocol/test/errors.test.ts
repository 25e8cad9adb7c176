import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  ErrorBody,
  errorBody,
  isErrorCode,
  isRingbackError,
  RingbackError,
} from "../src/index.js";

/** The README's error list as the code table gives it. */
function errorTableOfCodes(): string {
  const rows = ERROR_CODES.map(
    (code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DESCRIPTIONS[code]} |`,
  );
  return ["| Status | Code | Meaning |", "|---|---|---|", ...rows].join("\n");
}

const specErrors: Array<[number, string]> = [
  [403, "not_relayed"],
  [400, "undecryptable_request"],
  [422, "invalid_tracker_token"],
  [422, "tracker_not_configured"],
  [422, "workspace_not_found"],
  [400, "invalid_dispatch"],
  [422, "agent_unavailable"],
  [422, "project_not_found"],
  [422, "agent_not_found"],
  [422, "issue_not_found"],
  [422, "dispatch_not_found"],
  [422, "invalid_llm_settings"],
  [422, "llm_key_required"],
  [422, "invalid_language"],
  [422, "passphrase_too_short"],
  [422, "invalid_key"],
  [409, "duplicate_task"],
];

describe("error codes", () => {
  it.each(specErrors)("gives %i for %s as the spec's Errors table says", (status, code) => {
    expect(isErrorCode(code)).toBe(true);
    expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
  });

  it("gives every code a status between 400 and 599", () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });

  it("renders one envelope shape for every error", () => {
    const error = new RingbackError("invalid_dispatch", "words exceed 8000 characters");
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({
      error: { code: "invalid_dispatch", message: "words exceed 8000 characters" },
    });
    expect(ErrorBody.parse(errorBody("duplicate_task"))).toEqual({
      error: { code: "duplicate_task", message: "Another computer already reported this tracker task." },
    });
  });

  it("recognises errors from another copy of the package by their brand", () => {
    const foreign = Object.assign(new Error("x"), { [Symbol.for("ringback.error")]: true });
    expect(isRingbackError(foreign)).toBe(true);
    expect(isRingbackError(new Error("x"))).toBe(false);
    expect(isRingbackError(new RingbackError("not_found"))).toBe(true);
  });

  it("keeps the README's error list in step with the code table", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toContain(errorTableOfCodes());
  });
});
