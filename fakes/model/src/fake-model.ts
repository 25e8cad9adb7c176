import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentWireFormat, answerAgent } from "./agent-answer.js";
import type { FakeAnswer } from "./answers.js";
import { anthropicError, anthropicTokenCount } from "./anthropic-messages.js";
import { chatCompletion, modelList, streamEvents } from "./completion.js";
import { echoBrief, lastUserMessage } from "./echo-brief.js";

export interface FakeModelOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Model ids listed by `GET /models`. */
  models?: string[];
  /** When set, a request without `Authorization: Bearer <apiKey>` gets 401 like OpenAI's. */
  apiKey?: string;
  /** The answer when nothing is scripted; default `{ kind: "echo" }`. */
  defaultAnswer?: FakeAnswer;
}

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** The path, query included. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
}

export interface FakeModel extends AsyncDisposable {
  /** The base address to configure as the channel's `baseUrl` (ends in `/v1`). */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The chat-completion requests only. */
  chatRequests(): RecordedRequest[];
  /** The Anthropic Messages requests only (`POST …/messages`, Claude Code's format). */
  messagesRequests(): RecordedRequest[];
  /** The OpenAI Responses requests only (`POST …/responses`, Codex's format). */
  responsesRequests(): RecordedRequest[];
  /** Queues answers for the next model calls (any wire format), in order. */
  script(...answers: FakeAnswer[]): void;
  /** Answers scripted and not used yet. */
  pendingAnswers(): number;
  /** The answer once the script is used up. */
  setDefaultAnswer(answer: FakeAnswer): void;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ["fake-model"];
const CHAT_PATH = /\/chat\/completions\/?$/;
const MODELS_PATH = /\/models\/?$/;
const MESSAGES_PATH = /\/messages\/?$/;
const COUNT_TOKENS_PATH = /\/messages\/count_tokens\/?$/;
const RESPONSES_PATH = /\/responses\/?$/;

const pathnameOf = (recorded: RecordedRequest) => recorded.path.split("?")[0] ?? "";

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Starts an OpenAI-compatible model server on 127.0.0.1 whose answers a test scripts. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const models = options.models ?? DEFAULT_MODELS;
  const requests: RecordedRequest[] = [];
  const queue: FakeAnswer[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let defaultAnswer: FakeAnswer = options.defaultAnswer ?? { kind: "echo" };

  /** Waits out `delay` answers and never settles `hang`; hands any other answer to `respond`. */
  function settle(
    response: ServerResponse,
    answer: FakeAnswer,
    respond: (answer: Exclude<FakeAnswer, { kind: "hang" | "delay" }>) => void,
  ): void {
    if (answer.kind === "hang") return;
    if (answer.kind !== "delay") {
      respond(answer);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) settle(response, answer.then, respond);
    }, answer.ms);
    timers.add(timer);
    response.once("close", () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  }

  const modelOf = (body: unknown) => {
    const model = (body as { model?: unknown } | null)?.model;
    return typeof model === "string" ? model : (models[0] ?? "fake-model");
  };

  function answerChat(response: ServerResponse, body: unknown, answer: FakeAnswer): void {
    const model = modelOf(body);
    const isStream = (body as { stream?: unknown }).stream === true;
    settle(response, answer, (ready) => {
      switch (ready.kind) {
        case "status":
          sendJson(
            response,
            ready.status,
            ready.body ?? openAiError("error", "server_error", null),
            ready.headers,
          );
          return;
        case "echo": {
          const content = isStream
            ? `Fake answer to: ${lastUserMessage(body)}`
            : JSON.stringify(echoBrief(body));
          answerChat(response, body, { kind: "content", content });
          return;
        }
        case "content": {
          const finishReason = ready.finishReason ?? "stop";
          if (!isStream) {
            sendJson(
              response,
              200,
              chatCompletion(model, ready.content, finishReason, JSON.stringify(body), ready.refusal ?? null),
            );
            return;
          }
          response.writeHead(200, {
            "content-type": "text/event-stream",
            "cache-control": "no-cache",
            connection: "keep-alive",
          });
          for (const event of streamEvents(model, ready.content, finishReason)) {
            response.write(`data: ${event}\n\n`);
          }
          response.end();
          return;
        }
      }
    });
  }

  function answerAgentCall(format: AgentWireFormat, response: ServerResponse, body: unknown): void {
    settle(response, queue.shift() ?? defaultAnswer, (ready) =>
      answerAgent(format, response, body, ready, modelOf(body)),
    );
  }

  function isAuthorized(request: IncomingMessage): boolean {
    if (options.apiKey === undefined) return true;
    // Claude Code sends Anthropic's `x-api-key`; OpenAI clients send a bearer token.
    return (
      request.headers.authorization === `Bearer ${options.apiKey}` ||
      request.headers["x-api-key"] === options.apiKey
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = request.url ?? "/";
    requests.push({ method: request.method ?? "GET", path, headers: request.headers, body });
    const pathname = path.split("?")[0] ?? "/";
    const isPost = request.method === "POST";
    const isMessages = isPost && (MESSAGES_PATH.test(pathname) || COUNT_TOKENS_PATH.test(pathname));
    if (!isAuthorized(request)) {
      sendJson(
        response,
        401,
        isMessages
          ? anthropicError(401, "invalid x-api-key")
          : openAiError("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
      );
      return;
    }
    if (request.method === "GET" && MODELS_PATH.test(pathname)) {
      sendJson(response, 200, modelList(models));
      return;
    }
    if (request.method === "POST" && CHAT_PATH.test(pathname)) {
      if (typeof body !== "object" || body === null) {
        sendJson(response, 400, openAiError("The body must be JSON.", "invalid_request_error", null));
        return;
      }
      answerChat(response, body, queue.shift() ?? defaultAnswer);
      return;
    }
    if (isPost && COUNT_TOKENS_PATH.test(pathname)) {
      sendJson(response, 200, anthropicTokenCount(JSON.stringify(body)));
      return;
    }
    const agentFormat: AgentWireFormat | undefined =
      isPost && MESSAGES_PATH.test(pathname)
        ? "messages"
        : isPost && RESPONSES_PATH.test(pathname)
          ? "responses"
          : undefined;
    if (agentFormat !== undefined) {
      if (typeof body !== "object" || body === null) {
        const message = "The body must be JSON.";
        sendJson(
          response,
          400,
          agentFormat === "messages"
            ? anthropicError(400, message)
            : openAiError(message, "invalid_request_error", null),
        );
        return;
      }
      answerAgentCall(agentFormat, response, body);
      return;
    }
    sendJson(response, 404, openAiError(`Unknown path ${pathname}`, "invalid_request_error", null));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, openAiError(String(error), "server_error", null));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.close(() => resolve());
      // Hanging answers keep their sockets open; close them rather than wait for the client.
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((recorded) => CHAT_PATH.test(pathnameOf(recorded))),
    messagesRequests: () =>
      requests.filter((recorded) => recorded.method === "POST" && MESSAGES_PATH.test(pathnameOf(recorded))),
    responsesRequests: () =>
      requests.filter((recorded) => recorded.method === "POST" && RESPONSES_PATH.test(pathnameOf(recorded))),
    script: (...answers) => {
      queue.push(...answers);
    },
    pendingAnswers: () => queue.length,
    setDefaultAnswer: (answer) => {
      defaultAnswer = answer;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
