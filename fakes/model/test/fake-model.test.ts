import { SPOKEN_PARAGRAPH_MAX_RATIO } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { answers, briefDraft, echoBrief, startFakeModel } from "../src/index.js";

const REPORT = [
  "Fixed the login bug.",
  "The session cookie is now renewed on every request, and a regression test covers the password change.",
  "All 42 tests pass.",
  "The migration 0017 must run before Friday, otherwise old sessions stay valid for another week.",
  "Should I also shorten the session lifetime to 7 days?",
  "I left the old cookie name in place so that existing sessions survive the deploy.",
].join(" ");

function chat(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k", ...headers },
    body: JSON.stringify(body),
  });
}

function briefRequest(extra: Record<string, unknown> = {}) {
  return {
    model: "m",
    messages: [
      { role: "system", content: "You write briefs." },
      { role: "user", content: `From Claude Code.\n\n<report>\n${REPORT}\n</report>` },
    ],
    ...extra,
  };
}

async function contentOf(response: Response): Promise<string> {
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? "";
}

describe("the fake model", () => {
  it("lists its models at GET /models", async () => {
    await using fake = await startFakeModel({ models: ["a", "b"] });

    const response = await fetch(`${fake.url}/models`);

    expect(await response.json()).toMatchObject({ data: [{ id: "a" }, { id: "b" }] });
  });

  it("records every request with its headers and body", async () => {
    await using fake = await startFakeModel();

    await chat(fake.url, briefRequest(), { "x-test": "yes" });
    await fetch(`${fake.url}/models`);

    expect(fake.requests.map((request) => [request.method, request.path])).toEqual([
      ["POST", "/v1/chat/completions"],
      ["GET", "/v1/models"],
    ]);
    expect(fake.requests[0]?.headers["x-test"]).toBe("yes");
    expect(fake.requests[0]?.body).toEqual(briefRequest());
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("gives the scripted answers in order, then the echo brief", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.json(briefDraft({ title: "first" })),
      answers.fenced({ a: 1 }),
      answers.contentFilter(),
    );

    const first = await contentOf(await chat(fake.url, briefRequest()));
    const second = await contentOf(await chat(fake.url, briefRequest()));
    const third = (await (await chat(fake.url, briefRequest())).json()) as {
      choices: { finish_reason: string; message: { content: unknown } }[];
    };
    const fourth = JSON.parse(await contentOf(await chat(fake.url, briefRequest())));

    expect(JSON.parse(first).title).toBe("first");
    expect(second).toBe('```json\n{\n  "a": 1\n}\n```');
    expect(third.choices[0]).toMatchObject({ finish_reason: "content_filter", message: { content: null } });
    expect(fourth.title).toBe("Fixed the login bug.");
    expect(fake.pendingAnswers()).toBe(0);
  });

  it("answers HTTP errors with an OpenAI error body and headers", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.rateLimited(), answers.serverError());

    const limited = await chat(fake.url, briefRequest());
    const failed = await chat(fake.url, briefRequest());

    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    expect(failed.status).toBe(500);
  });

  it("refuses a wrong key with 401 when it has a key", async () => {
    await using fake = await startFakeModel({ apiKey: "right" });

    const wrong = await chat(fake.url, briefRequest(), { authorization: "Bearer wrong" });
    const right = await chat(fake.url, briefRequest(), { authorization: "Bearer right" });

    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
  });

  it("streams a completion as SSE data lines ending in [DONE]", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.json("The build is green and all 42 tests pass."));

    const response = await chat(fake.url, { ...briefRequest(), stream: true });
    const text = await response.text();
    const events = text
      .split("\n\n")
      .filter(Boolean)
      .map((line) => line.replace(/^data: /, ""));

    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    const content = chunks.map((chunk) => chunk.choices[0].delta.content ?? "").join("");
    expect(content).toBe(JSON.stringify("The build is green and all 42 tests pass."));
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
  });

  it("delays an answer by the scripted time", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.delay(100, answers.json({ late: true })));

    const started = performance.now();
    const content = await contentOf(await chat(fake.url, briefRequest()));

    expect(JSON.parse(content)).toEqual({ late: true });
    // A lower bound only: the fake must not answer before its delay.
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("leaves a hanging request open until the client gives up", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.hang());

    const response = chat(fake.url, briefRequest()).catch((error: unknown) => error);
    await expect.poll(() => fake.chatRequests().length).toBe(1);
    await fake.close();

    expect(await response).toBeInstanceOf(Error);
  });
});

describe("the echo brief", () => {
  it("stays within the spoken limit and covers its critical fact", () => {
    const draft = echoBrief(briefRequest());

    expect(Array.from(draft.spoken).length).toBeLessThanOrEqual(REPORT.length * SPOKEN_PARAGRAPH_MAX_RATIO);
    expect(draft.criticalFacts).toEqual([{ fact: "Fixed the login bug.", covered: true }]);
    expect(draft.spoken.startsWith("Fixed the login bug.")).toBe(true);
    expect(draft.openQuestions).toEqual(["Should I also shorten the session lifetime to 7 days?"]);
    expect(draft).not.toHaveProperty("supplementaryHeading");
  });

  it("adds the supplementary heading when the request asks for the rewrite schema", () => {
    const draft = echoBrief(
      briefRequest({
        response_format: {
          type: "json_schema",
          json_schema: { name: "brief", schema: { properties: { supplementaryHeading: {} } } },
        },
      }),
    );

    expect(draft.supplementaryHeading).toBe("Also important");
  });
});

describe("streamed answers", () => {
  async function readAll(response: Response): Promise<string> {
    return await response.text();
  }

  it("writes a streamed answer piece by piece, then the usage and [DONE] when asked", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed({ pieceChars: 10 }, "0123456789abcdefghij"));

    const text = await readAll(
      await chat(fake.url, briefRequest({ stream: true, stream_options: { include_usage: true } })),
    );

    const payloads = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6));
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content).filter(Boolean)).toEqual([
      "0123456789",
      "abcdefghij",
    ]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 5 } });
    await fake.chatCall(0).finished;
  });

  it("sends the whole answer at the end when the request does not stream", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed({}, briefDraft()));

    expect(JSON.parse(await contentOf(await chat(fake.url, briefRequest())))).toEqual(briefDraft());
  });

  it("stalls after the given pieces and tells when the client closes the connection", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed({ stallAfter: 2, pieceChars: 3 }, "abcdefghij"));
    const controller = new AbortController();

    const response = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(briefRequest({ stream: true })),
      signal: controller.signal,
    });
    await fake.chatCall(0).stalled;
    const reader = response.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    controller.abort();

    expect(first).toContain('"role":"assistant"');
    await fake.chatCall(0).closedByClient;
  });

  it("echoes a brief, not a chat answer, to a streamed request for structured output", async () => {
    await using fake = await startFakeModel();

    const text = await readAll(
      await chat(fake.url, briefRequest({ stream: true, response_format: { type: "json_object" } })),
    );

    const content = text
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
      .join("");
    expect(JSON.parse(content)).toMatchObject({ title: expect.any(String), spoken: expect.any(String) });
  });
});
