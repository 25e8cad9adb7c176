import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import { Brief } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { briefRewriteJsonSchema, generateBrief, maxSpokenChars } from "../src/index.js";
import { channelFor, chatBody, LONG_REPORT_TEXT, messagesOf, report } from "./helpers.js";

const MIGRATION = "The migration 0017 must run before Friday.";
const COVERED_TESTS = { fact: "All 42 tests pass.", covered: true };
const SPOKEN_WITH_BOTH =
  "The login bug is fixed, all 42 tests pass, and the migration 0017 must run before Friday.";

describe("the rewrite", () => {
  it("is made once when a critical fact is uncovered; a good rewrite needs no supplementary paragraph", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.uncoveredFact(MIGRATION),
      answers.rewrite({
        spoken: SPOKEN_WITH_BOTH,
        criticalFacts: [COVERED_TESTS, { fact: MIGRATION, covered: true }],
      }),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(Brief.parse(brief)).toEqual(brief);
    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 2, error: null });
    expect(brief.spoken).toBe(SPOKEN_WITH_BOTH);
    expect(brief.supplementary).toBeNull();
    expect(brief.criticalFacts).toEqual([COVERED_TESTS, { fact: MIGRATION, covered: true }]);
    expect(brief).not.toHaveProperty("supplementaryHeading");

    const rewriteMessages = messagesOf(fake, 1);
    expect(rewriteMessages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(rewriteMessages[3]?.content).toContain(
      `The spoken paragraph does not state these critical facts: "${MIGRATION}".`,
    );
    expect(chatBody(fake, 1).response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "brief", strict: true, schema: briefRewriteJsonSchema() },
    });
  });

  it("appends facts still uncovered after the rewrite as a supplementary paragraph with the model's heading", async () => {
    await using fake = await startFakeModel();
    const migración = "La migración 0017 debe ejecutarse antes del viernes";
    fake.script(
      answers.uncoveredFact(migración),
      answers.rewrite(
        {
          title: "Login arreglado",
          spoken: "El error del login está arreglado y las 42 pruebas pasan.",
          criticalFacts: [
            { fact: "Las 42 pruebas pasan.", covered: true },
            { fact: migración, covered: false },
          ],
        },
        "Además",
      ),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "es-MX" });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 2, language: "es-MX" });
    expect(brief.supplementary).toEqual({ heading: "Además", text: `${migración}.` });
    expect(brief.criticalFacts).toContainEqual({ fact: migración, covered: false });
    expect(messagesOf(fake, 1)[3]?.content).toContain("a short heading in Mexican Spanish (es-MX)");
  });

  it("treats a fact marked covered whose numbers are missing from the spoken part as uncovered", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.json(
        briefDraft({
          spoken: "The login bug is fixed and the tests pass.",
          criticalFacts: [COVERED_TESTS],
        }),
      ),
      answers.rewrite({
        spoken: "The login bug is fixed and all 42 tests pass.",
        criticalFacts: [COVERED_TESTS],
      }),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta.llmCalls).toBe(2);
    expect(brief.supplementary).toBeNull();
    expect(messagesOf(fake, 1)[3]?.content).toContain(
      'The critical fact "All 42 tests pass." is marked covered, but the spoken paragraph lacks its numbers 42',
    );
  });

  it("counts a covered fact the rewrite dropped as uncovered when its numbers left the spoken part", async () => {
    await using fake = await startFakeModel();
    const limit = maxSpokenChars(LONG_REPORT_TEXT) ?? 0;
    fake.script(
      answers.tooLongSpoken(limit + 1),
      answers.rewrite({ spoken: "The login bug is fixed.", criticalFacts: [] }, "Also important"),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.supplementary).toEqual({ heading: "Also important", text: COVERED_TESTS.fact });
    expect(brief.criticalFacts).toEqual([{ fact: COVERED_TESTS.fact, covered: false }]);
  });

  it("counts an uncovered fact the rewrite dropped as still uncovered", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.uncoveredFact(MIGRATION),
      answers.rewrite({ criticalFacts: [COVERED_TESTS] }, "Also important"),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.supplementary).toEqual({ heading: "Also important", text: MIGRATION });
    expect(brief.criticalFacts).toEqual([COVERED_TESTS, { fact: MIGRATION, covered: false }]);
  });

  it("is made once when the spoken part is too long, and a short rewrite passes", async () => {
    await using fake = await startFakeModel();
    const limit = maxSpokenChars(LONG_REPORT_TEXT) ?? 0;
    fake.script(answers.tooLongSpoken(limit + 1), answers.rewrite());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 2 });
    expect(brief.supplementary).toBeNull();
    expect(brief.spoken).toBe(briefDraft().spoken);
    expect(messagesOf(fake, 1)[3]?.content).toContain(
      `The spoken paragraph has ${limit + 1} characters; it may have at most ${limit} (60 % of the report's ${LONG_REPORT_TEXT.length}).`,
    );
  });

  it("keeps a rewrite that is still too long: one rewrite at most", async () => {
    await using fake = await startFakeModel();
    const limit = maxSpokenChars(LONG_REPORT_TEXT) ?? 0;
    fake.script(
      answers.tooLongSpoken(limit + 50),
      answers.tooLongSpoken(limit + 10, { supplementaryHeading: "Also" }),
      answers.serverError(),
    );

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 2 });
    expect(Array.from(brief.spoken)).toHaveLength(limit + 10);
    expect(fake.chatRequests()).toHaveLength(2);
    expect(fake.pendingAnswers()).toBe(1);
  });

  it("is not made for a long spoken part when the report has under 300 characters", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.tooLongSpoken(200));

    const brief = await generateBrief({
      report: report({ text: "Fixed the login bug. All 42 tests pass." }),
      channel: channelFor(fake),
      language: "en-US",
    });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 1 });
  });

  it("fails the brief when the rewrite call fails", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.uncoveredFact(MIGRATION), answers.serverError());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief).toMatchObject({ spoken: "", cards: [], supplementary: null });
    expect(brief.meta).toMatchObject({
      status: "failed",
      llmCalls: 2,
      error:
        "The rewrite failed. The language model answered HTTP 500: The server had an error while processing your request.",
    });
  });

  it("fails the brief when the rewrite lacks the supplementary heading", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.uncoveredFact(MIGRATION), answers.json(briefDraft()));

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta).toMatchObject({
      status: "failed",
      llmCalls: 2,
      error:
        "The rewrite failed. The language model's answer does not match the brief schema: supplementaryHeading: Invalid input: expected string, received undefined",
    });
  });

  it("puts the rewrite schema in the system prompt of a json_object rewrite", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.uncoveredFact(MIGRATION),
      answers.fenced(briefDraft({ supplementaryHeading: "Also" })),
    );

    const brief = await generateBrief({
      report: report(),
      channel: channelFor(fake, { structuredOutput: "json_object" }),
      language: "en-US",
    });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 2 });
    expect(brief.supplementary).toEqual({ heading: "Also", text: MIGRATION });
    expect(messagesOf(fake, 1)[0]?.content).toContain(JSON.stringify(briefRewriteJsonSchema()));
  });
});
