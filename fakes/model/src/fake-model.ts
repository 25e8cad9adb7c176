import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeAnswer } from "./answers.js";
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
  /** Queues answers for the next chat-completion requests, in order. */
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

  function answerChat(response: ServerResponse, body: unknown, answer: FakeAnswer): void {
    const request = (body ?? {}) as { model?: unknown; stream?: unknown };
    const model = typeof request.model === "string" ? request.model : (models[0] ?? "fake-model");
    const isStream = request.stream === true;
    switch (answer.kind) {
      case "status":
        sendJson(
          response,
          answer.status,
          answer.body ?? openAiError("error", "server_error", null),
          answer.headers,
        );
        return;
      case "hang":
        return;
      case "delay": {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) answerChat(response, body, answer.then);
        }, answer.ms);
        timers.add(timer);
        response.once("close", () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case "echo": {
        const content = isStream
          ? `Fake answer to: ${lastUserMessage(body)}`
          : JSON.stringify(echoBrief(body));
        answerChat(response, body, { kind: "content", content });
        return;
      }
      case "content": {
        const finishReason = answer.finishReason ?? "stop";
        if (!isStream) {
          sendJson(response, 200, chatCompletion(model, answer.content, finishReason, JSON.stringify(body)));
          return;
        }
        response.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
        for (const event of streamEvents(model, answer.content, finishReason)) {
          response.write(`data: ${event}\n\n`);
        }
        response.end();
        return;
      }
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = request.url ?? "/";
    requests.push({ method: request.method ?? "GET", path, headers: request.headers, body });
    const pathname = path.split("?")[0] ?? "/";
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(
        response,
        401,
        openAiError("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
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
    chatRequests: () => requests.filter((recorded) => CHAT_PATH.test(recorded.path.split("?")[0] ?? "")),
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
