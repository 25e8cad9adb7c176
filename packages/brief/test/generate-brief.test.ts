import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import { Brief, FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { briefJsonSchema, generateBrief } from "../src/index.js";
import { API_KEY, channelFor, chatBody, messagesOf, report } from "./helpers.js";

describe("generateBrief with a json_schema channel", () => {
  it("generates a brief from one valid answer", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.json(briefDraft()));

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(Brief.parse(brief)).toEqual(brief);
    expect(brief).toMatchObject({
      ...briefDraft(),
      supplementary: null,
      meta: { status: "generated", llmCalls: 1, model: "fake-model", language: "en-US", error: null },
    });
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("posts the structured call to {baseUrl}/chat/completions with the key and a strict brief schema", async () => {
    await using fake = await startFakeModel();

    await generateBrief({
      report: report(),
      channel: channelFor(fake, { model: "gpt-test" }),
      language: "en-US",
    });

    const [request] = fake.chatRequests();
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    const body = chatBody(fake);
    expect(body.model).toBe("gpt-test");
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "brief", strict: true, schema: briefJsonSchema() },
    });
    expect(messagesOf(fake).map((message) => message.role)).toEqual(["system", "user"]);
  });

  it("joins a baseUrl that ends in a slash without doubling it", async () => {
    await using fake = await startFakeModel();

    await generateBrief({
      report: report(),
      channel: channelFor(fake, { baseUrl: `${fake.url}/` }),
      language: "en-US",
    });

    expect(fake.chatRequests()[0]?.path).toBe("/v1/chat/completions");
  });

  it("sends reasoning_effort only when the channel sets it", async () => {
    await using fake = await startFakeModel();

    await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });
    await generateBrief({
      report: report(),
      channel: channelFor(fake, { reasoningEffort: "low" }),
      language: "en-US",
    });

    expect(chatBody(fake, 0)).not.toHaveProperty("reasoning_effort");
    expect(chatBody(fake, 1).reasoning_effort).toBe("low");
  });

  it("gets a generated brief from the fake's default echo answer with nothing scripted", async () => {
    await using fake = await startFakeModel();

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 1, error: null });
    expect(brief.spoken).toContain("Fixed the login bug");
    expect(brief.criticalFacts.every((fact) => fact.covered)).toBe(true);
  });
});

describe("generateBrief with a json_object channel", () => {
  it("puts the schema in the system prompt, strips the markdown fence and validates the answer", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.fenced(briefDraft({ title: "Fenced" })));

    const brief = await generateBrief({
      report: report(),
      channel: channelFor(fake, { structuredOutput: "json_object" }),
      language: "en-US",
    });

    expect(brief.meta).toMatchObject({ status: "generated", llmCalls: 1, error: null });
    expect(brief.title).toBe("Fenced");
    expect(chatBody(fake).response_format).toEqual({ type: "json_object" });
    expect(messagesOf(fake)[0]?.content).toContain(JSON.stringify(briefJsonSchema()));
  });

  it("fails the brief when the answer does not match the schema", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.schemaMismatch());

    const brief = await generateBrief({
      report: report(),
      channel: channelFor(fake, { structuredOutput: "json_object" }),
      language: "en-US",
    });

    expect(brief.meta.status).toBe("failed");
    expect(brief.meta.llmCalls).toBe(1);
    expect(brief.meta.error).toMatch(/^The language model's answer does not match the brief schema: /);
  });
});

describe("the prompt", () => {
  it("names the brief language in words whatever the report's language", async () => {
    await using fake = await startFakeModel();

    await generateBrief({
      report: report({ text: "Alle 42 Tests sind grün." }),
      channel: channelFor(fake),
      language: "es-MX",
    });

    const [system, user] = messagesOf(fake);
    expect(system?.content).toContain("Write in Mexican Spanish (es-MX)");
    expect(system?.content).toContain(FORM_OF_ADDRESS_PLACEHOLDER);
    expect(user?.content).toContain("<report>\nAlle 42 Tests sind grün.\n</report>");
    expect(user?.content).toContain('Claude Code working in the folder "webshop"');
  });

  it("tells the model the spoken limit when the report has 300 characters or more", async () => {
    await using fake = await startFakeModel();

    await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });
    await generateBrief({ report: report({ text: "Short." }), channel: channelFor(fake), language: "en-US" });

    expect(messagesOf(fake, 0)[0]?.content).toMatch(/At most \d+ characters\./);
    expect(messagesOf(fake, 1)[0]?.content).not.toMatch(/At most \d+ characters\./);
  });

  it("mentions the issue and project of a tracker report", async () => {
    await using fake = await startFakeModel();

    await generateBrief({
      report: report({
        source: "tracker",
        cwd: undefined,
        tracker: {
          workspaceId: "ws-1",
          taskId: "task-1",
          issueId: "issue-1",
          issueIdentifier: "MUL-12",
          issueTitle: "Fix the login",
          projectName: "Webshop",
          agentName: "Codex",
        },
      }),
      channel: channelFor(fake),
      language: "en-US",
    });

    expect(messagesOf(fake)[1]?.content).toContain(
      'This report comes from the agent Codex working on the issue MUL-12 "Fix the login" of the project "Webshop". Mention the issue in the brief.',
    );
  });
});
