import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import type { Report } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluateBriefs, evaluationFailed, formatEvaluation, maxSpokenChars } from "../src/index.js";
import { channelFor, LONG_REPORT_TEXT, report } from "./helpers.js";

let temporary: TemporaryDirectory;
let directory: string;
beforeEach(async () => {
  temporary = await makeTemporaryDirectory("brief-eval-");
  directory = temporary.path;
});
afterEach(async () => {
  await temporary.remove();
});

describe("evaluateBriefs", () => {
  it("briefs plain-text and JSON report files and measures each", async () => {
    await using fake = await startFakeModel();
    const textFile = join(directory, "login fix.md");
    const jsonFile = join(directory, "tracker.json");
    await writeFile(textFile, LONG_REPORT_TEXT);
    const trackerReport: Report = report({
      eventId: "task-9",
      source: "tracker",
      text: "Deployed. 3 of 4 checks pass.",
    });
    await writeFile(jsonFile, JSON.stringify(trackerReport));
    fake.script(
      answers.json(briefDraft()),
      answers.json(
        briefDraft({
          spoken: "Deployed; 3 of 4 checks pass.",
          criticalFacts: [{ fact: "3 of 4 checks pass.", covered: true }],
        }),
      ),
    );

    const results = await evaluateBriefs({
      files: [textFile, jsonFile],
      channel: channelFor(fake),
      language: "en-US",
    });

    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      name: textFile,
      status: "generated",
      criticalFacts: 1,
      coveredFacts: 1,
      uncoveredFacts: [],
      llmCalls: 1,
      originalChars: LONG_REPORT_TEXT.length,
      spokenChars: briefDraft().spoken.length,
      isRatioRuleApplied: true,
      isTooLong: false,
    });
    expect(results[0]?.spokenRatio).toBeCloseTo(briefDraft().spoken.length / LONG_REPORT_TEXT.length);
    expect(results[0]?.durationMs).toBeGreaterThan(0);
    expect(results[1]).toMatchObject({
      name: jsonFile,
      isRatioRuleApplied: false,
      status: "generated",
      llmCalls: 1,
    });
    expect(JSON.stringify(fake.chatRequests()[1]?.body)).toContain("Deployed. 3 of 4 checks pass.");
    expect(evaluationFailed(results)).toBe(false);
    expect(formatEvaluation(results)).toContain("2 reports: 2 passed, 0 failed.");
  });

  it("fails the run when a fact stays uncovered, the spoken part stays too long, or a brief fails", async () => {
    await using fake = await startFakeModel();
    const limit = maxSpokenChars(LONG_REPORT_TEXT) ?? 0;
    fake.script(
      answers.uncoveredFact("The migration must run first."),
      answers.rewrite({}, "Also"),
      answers.uncoveredFact("The migration must run first."),
      answers.rewrite({ criticalFacts: [{ fact: "The migration must run first.", covered: false }] }, "Also"),
      answers.tooLongSpoken(limit + 20),
      answers.tooLongSpoken(limit + 10, { supplementaryHeading: "Also" }),
      answers.serverError(),
    );
    const reports = ["dropped", "uncovered", "long", "failed"].map((eventId) => report({ eventId }));

    const results = await evaluateBriefs({ reports, channel: channelFor(fake), language: "en-US" });
    const output = formatEvaluation(results);

    expect(results.map((result) => [result.name, result.llmCalls, result.hasSupplementary])).toEqual([
      ["dropped", 2, true],
      ["uncovered", 2, true],
      ["long", 2, false],
      ["failed", 1, false],
    ]);
    expect(results[0]?.uncoveredFacts).toEqual(["The migration must run first."]);
    expect(results[2]?.isTooLong).toBe(true);
    expect(evaluationFailed(results)).toBe(true);
    expect(evaluationFailed(results.slice(2, 3))).toBe(true);
    expect(output).toContain("uncovered: The migration must run first.");
    expect(output).toContain("(too long)");
    expect(output).toContain("error: The language model answered HTTP 500");
    expect(output).toContain("4 reports: 0 passed, 4 failed.");
  });

  it("passes a run whose briefs cover every fact within the length", async () => {
    await using fake = await startFakeModel();

    const results = await evaluateBriefs({
      reports: [report()],
      channel: channelFor(fake),
      language: "en-US",
    });

    expect(evaluationFailed(results)).toBe(false);
    expect(formatEvaluation(results)).toMatch(
      /^report\s+status\s+facts covered\s+spoken\/original\s+calls\s+time\n/,
    );
  });

  it("refuses a JSON file that is not a report before any model call", async () => {
    await using fake = await startFakeModel();
    const badFile = join(directory, "bad.json");
    await writeFile(badFile, JSON.stringify({ text: "no event id" }));

    await expect(
      evaluateBriefs({
        files: [join(directory, "missing.txt"), badFile],
        channel: channelFor(fake),
        language: "en-US",
      }),
    ).rejects.toThrow(/ENOENT/);
    await expect(
      evaluateBriefs({ files: [badFile], channel: channelFor(fake), language: "en-US" }),
    ).rejects.toThrow(
      `${badFile} is not a Ringback report: eventId: Invalid input: expected string, received undefined`,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("fails every brief with no model configured", async () => {
    const results = await evaluateBriefs({ reports: [report()], channel: null, language: "en-US" });

    expect(results[0]).toMatchObject({ status: "failed", llmCalls: 0 });
    expect(evaluationFailed(results)).toBe(true);
  });
});
