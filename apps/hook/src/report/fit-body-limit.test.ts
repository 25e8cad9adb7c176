import type { ReportRequest } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { REPORT_BODY_MAX_BYTES } from "../daemon-call/protocol-constants.js";
import { reportBody, TRUNCATION_MARK } from "./fit-body-limit.js";

const base: ReportRequest = { source: "codex", sessionId: "s", cwd: "/w", text: "" };

describe("reportBody", () => {
  it("leaves a report within the limit as it is", () => {
    const report = { ...base, text: "short reply" };
    expect(reportBody(report)).toBe(JSON.stringify(report));
  });

  it("cuts a reply longer than the daemon's limit, keeping its start and marking the cut", () => {
    const text = `${"start. "}${'é"\\\n'.repeat(REPORT_BODY_MAX_BYTES)}`;
    const body = reportBody({ ...base, text });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(REPORT_BODY_MAX_BYTES);
    const parsed = JSON.parse(body) as ReportRequest;
    expect(parsed.text.startsWith("start. é")).toBe(true);
    expect(parsed.text.endsWith(TRUNCATION_MARK)).toBe(true);
  });

  it("never leaves half of a surrogate pair", () => {
    const body = reportBody({ ...base, text: "😀".repeat(1000) }, 1000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1000);
    expect((JSON.parse(body) as ReportRequest).text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
