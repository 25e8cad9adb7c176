import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import { Brief } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import {
  BRIEF_OUTPUT_TOKENS_MAX,
  BRIEF_OUTPUT_TOKENS_MIN,
  CONTEXT_TOKENS,
  generateBrief,
} from "../src/index.js";
import { estimateTokens } from "../src/token-estimate.js";
import { channelFor, chatBody, messagesOf, report } from "./helpers.js";

const longReport = (lines: number) =>
  Array.from({ length: lines }, (_, index) =>
    index === 0
      ? "Migrated the billing service. All 812 tests pass."
      : `Step ${index}: moved handler number ${index} to the new queue and checked its retries.`,
  ).join("\n");

describe("bounded work against a local model", () => {
  it("sends an output limit that fits the brief of the report, larger for a longer report", async () => {
    await using fake = await startFakeModel();

    await generateBrief({
      report: report({ text: "Fixed it." }),
      channel: channelFor(fake),
      language: "en-US",
    });
    await generateBrief({
      report: report({ text: longReport(30) }),
      channel: channelFor(fake),
      language: "en-US",
    });

    const short = chatBody(fake, 0).max_tokens as number;
    const long = chatBody(fake, 1).max_tokens as number;
    expect(short).toBe(BRIEF_OUTPUT_TOKENS_MIN);
    expect(long).toBeGreaterThan(short);
    expect(long).toBeLessThanOrEqual(BRIEF_OUTPUT_TOKENS_MAX);
  });

  it("sends no output limit to a hosted model", async () => {
    await using fake = await startFakeModel();
    // A hosted address that leads to the fake: the URL's userinfo-free name is what decides the kind.
    const fetchToFake: typeof fetch = (input, init) =>
      fetch(String(input).replace("https://models.example.com/v1", fake.url), init);

    await generateBrief({
      report: report(),
      channel: channelFor(fake, { baseUrl: "https://models.example.com/v1" }),
      language: "en-US",
      fetch: fetchToFake,
    });

    expect(chatBody(fake)).not.toHaveProperty("max_tokens");
  });

  it("keeps a long report's prompt and the rewrite within a 4k context, says it was cut, and checks what it gave", async () => {
    await using fake = await startFakeModel();
    // The first draft misses a fact of the part given; the rewrite covers it.
    fake.script(
      answers.uncoveredFact("Handler 3 was moved.", {
        spoken: "The billing service moved; all 812 tests pass.",
      }),
      answers.rewrite({ spoken: "The billing service moved, handler 3 too; all 812 tests pass." }),
    );

    const brief = await generateBrief({
      report: report({ text: longReport(350) }),
      channel: channelFor(fake),
      language: "en-US",
    });

    expect(Brief.parse(brief)).toEqual(brief);
    expect(brief.meta.status).toBe("generated");
    expect(brief.meta.reportCut?.originalChars).toBe(longReport(350).length);
    expect(brief.meta.reportCut?.briefedChars).toBeLessThan(longReport(350).length);
    const user = messagesOf(fake, 0)[1]?.content ?? "";
    expect(user).toContain("The report was too long for this model and was shortened");
    expect(user).toMatch(/\[… \d+ lines of the report left out here …\]/);
    expect(user).toContain("Step 349:");
    const rewriteMessages = messagesOf(fake, 1);
    const rewriteTokens = rewriteMessages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
    expect(rewriteTokens + (chatBody(fake, 1).max_tokens as number)).toBeLessThanOrEqual(
      CONTEXT_TOKENS.local,
    );
    // The 60 % rule and the facts are checked against what the model was given, not the whole report.
    expect(messagesOf(fake, 0)[0]?.content).toMatch(/At most \d+ characters\./);
  });

  it("leaves a report that fits as written, with no cut in the brief", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.json(briefDraft()));

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta).not.toHaveProperty("reportCut");
    expect(messagesOf(fake)[1]?.content).not.toContain("shortened");
  });
});
