import { describe, expect, it } from "vitest";
import { PROBLEM_TEXTS } from "../i18n/texts/problems.js";
import {
  ModelAnswerError,
  type ModelProblem,
  modelProblemOf,
  modelProblemText,
  PROVIDER_DETAIL_MAX_CHARS,
  providerDetail,
  statusProblem,
} from "./model-problem.js";

/** Every kind with its sentence in both interface languages; a kind added without a row here does not compile. */
const SENTENCES: { [K in ModelProblem["kind"]]: [Extract<ModelProblem, { kind: K }>, string, string][] } = {
  unreachable: [
    [
      { kind: "unreachable", address: "https://models.example/v1" },
      "The language model at https://models.example/v1 could not be reached.",
      "无法连接位于 https://models.example/v1 的语言模型。",
    ],
  ],
  status: [
    [
      { kind: "status", status: 503, detail: null },
      "The language model answered 503.",
      "模型返回了错误（503）。",
    ],
    [
      { kind: "status", status: 401, detail: "Incorrect API key provided." },
      "The language model answered 401: Incorrect API key provided.",
      "模型返回了错误（401）：Incorrect API key provided.",
    ],
  ],
  "no-content": [
    [{ kind: "no-content" }, "The language model's answer has no content.", "语言模型的回答没有内容。"],
  ],
  "no-body": [[{ kind: "no-body" }, "The language model's answer has no body.", "语言模型的回答是空的。"]],
  "stream-not-json": [
    [
      { kind: "stream-not-json" },
      "The model's stream is not made of JSON chunks.",
      "模型的流式回答不是 JSON 数据块。",
    ],
  ],
  "failed-mid-answer": [
    [{ kind: "failed-mid-answer", detail: null }, "The model failed mid-answer.", "模型在回答途中出错。"],
    [
      { kind: "failed-mid-answer", detail: "context length exceeded" },
      "The model failed mid-answer: context length exceeded",
      "模型在回答途中出错：context length exceeded",
    ],
  ],
  "answer-cut-off": [
    [{ kind: "answer-cut-off" }, "The language model's answer was cut off.", "语言模型的回答中途断开了。"],
  ],
  "not-a-model-list": [
    [{ kind: "not-a-model-list" }, "The answer is not a list of models.", "该地址的回答不是模型列表。"],
  ],
  other: [[{ kind: "other", detail: "QuotaExceededError" }, "QuotaExceededError", "QuotaExceededError"]],
};

describe("the language model's problems, worded in the interface language", () => {
  for (const [kind, rows] of Object.entries(SENTENCES)) {
    it(`${kind}: an English and a Chinese sentence with the facts in place`, () => {
      for (const [problem, english, chinese] of rows) {
        expect(modelProblemText(problem, PROBLEM_TEXTS.en)).toBe(english);
        expect(modelProblemText(problem, PROBLEM_TEXTS.zh)).toBe(chinese);
      }
    });
  }

  it("keeps the English sentence as the error's message, for logs, and the problem as plain data", () => {
    const problem: ModelProblem = { kind: "status", status: 429, detail: "Rate limit reached." };
    const error = new ModelAnswerError(problem, { cause: new Error("underlying") });
    expect(error.message).toBe("The language model answered 429: Rate limit reached.");
    expect(error.name).toBe("ModelAnswerError");
    expect(modelProblemOf(error)).toEqual(problem);
    expect(JSON.parse(JSON.stringify(modelProblemOf(error)))).toEqual(problem);
  });

  it("takes an error from elsewhere as it came", () => {
    expect(modelProblemOf(new Error("The database is closed."))).toEqual({
      kind: "other",
      detail: "The database is closed.",
    });
    expect(modelProblemOf("plain")).toEqual({ kind: "other", detail: "plain" });
  });
});

describe("the provider's own words in an error body", () => {
  it("reads OpenAI's error.message, a bare error string or a message", () => {
    const openAi = { error: { message: "Incorrect API key provided.", type: "invalid_request_error" } };
    expect(providerDetail(JSON.stringify(openAi))).toBe("Incorrect API key provided.");
    expect(providerDetail(JSON.stringify({ error: "model not found" }))).toBe("model not found");
    expect(providerDetail(JSON.stringify({ message: "Forbidden" }))).toBe("Forbidden");
  });

  it("keeps a body that is not JSON, spaces collapsed and cut, and nothing for an empty body", () => {
    expect(providerDetail("<html>\n  <h1>502 Bad Gateway</h1>\n</html>")).toBe(
      "<html> <h1>502 Bad Gateway</h1> </html>",
    );
    expect(providerDetail("x".repeat(500))).toHaveLength(PROVIDER_DETAIL_MAX_CHARS);
    expect(providerDetail("  \n")).toBeNull();
    expect(providerDetail(JSON.stringify({ error: { code: 500 } }))).toBe('{"error":{"code":500}}');
  });

  it("blanks the key should a provider echo it, but not a short key that could be a word", () => {
    const echoed = JSON.stringify({ error: { message: "Key sk-secret-123456 is revoked." } });
    expect(providerDetail(echoed, "sk-secret-123456")).toBe("Key … is revoked.");
    expect(providerDetail("any key will do", "any")).toBe("any key will do");
  });

  it("makes a status problem of an answer that is not 2xx", async () => {
    const answer = Response.json(
      { error: { message: "The model `gpt-x` does not exist." } },
      { status: 404 },
    );
    expect(await statusProblem(answer)).toEqual({
      kind: "status",
      status: 404,
      detail: "The model `gpt-x` does not exist.",
    });
    expect(await statusProblem(new Response(null, { status: 500 }))).toEqual({
      kind: "status",
      status: 500,
      detail: null,
    });
  });
});
