import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { answerAgent } from "./agent-answer.js";
import type { AgentWireFormat } from "./agent-tools.js";
import { decideShellFromPrompt, type FakeToolResult, toolResultsOf } from "./agent-tools.js";
import type { FakeAnswer } from "./answers.js";
import { anthropicError, anthropicTokenCount } from "./anthropic-messages.js";
import { chatCompletion, completionChunks, modelList, streamEvents } from "./completion.js";
import { echoBrief, lastUserMessage } from "./echo-brief.js";
import { sendJson } from "./json-response.js";

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
  /**
   * What agents sent back for tool calls, in order: the tool results each Messages or Responses request ended with
   * (Claude's `tool_result` blocks, Codex's `function_call_output` items).
   */
  toolResults(): FakeToolResult[];
  /** Queues answers for the next model calls (any wire format), in order. */
  script(...answers: FakeAnswer[]): void;
  /** Answers scripted and not used yet. */
  pendingAnswers(): number;
  /** The answer once the script is used up. */
  setDefaultAnswer(answer: FakeAnswer): void;
  /**
   * How the n-th chat-completion request (0-based, in arrival order) goes, for tests that drive time themselves:
   * each promise settles when that moment comes, whenever it is asked.
   */
  chatCall(index: number): FakeChatCall;
  close(): Promise<void>;
}

/** The moments of one chat-completion request. */
export interface FakeChatCall {
  /** The request has arrived (its body read). */
  arrived: Promise<RecordedRequest>;
  /** A `stream` answer has written its first piece. */
  firstPiece: Promise<void>;
  /** A `stream` answer with `stallAfter` has written its last piece and stopped. */
  stalled: Promise<void>;
  /** The answer is complete (the response ended). */
  finished: Promise<void>;
  /** The client closed the connection before the answer was complete. */
  closedByClient: Promise<void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

class ChatCallMoments {
  readonly arrived = deferred<RecordedRequest>();
  readonly firstPiece = deferred<void>();
  readonly stalled = deferred<void>();
  readonly finished = deferred<void>();
  readonly closedByClient = deferred<void>();

  view(): FakeChatCall {
    return {
      arrived: this.arrived.promise,
      firstPiece: this.firstPiece.promise,
      stalled: this.stalled.promise,
      finished: this.finished.promise,
      closedByClient: this.closedByClient.promise,
    };
  }
}

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
} as const;

/** Whether the request asks for structured output (a brief), not a plain chat answer (an in-call question). */
function asksForStructuredOutput(body: unknown): boolean {
  return (body as { response_format?: unknown }).response_format !== undefined;
}

function includesUsage(body: unknown): boolean {
  return (body as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage === true;
}

const DEFAULT_MODELS = ["fake-model"];
const CHAT_PATH = /\/chat\/completions\/?$/;
const MODELS_PATH = /\/models\/?$/;
const MESSAGES_PATH = /\/messages\/?$/;
const COUNT_TOKENS_PATH = /\/messages\/count_tokens\/?$/;
const RESPONSES_PATH = /\/responses\/?$/;

const pathnameOf = (recorded: RecordedRequest) => recorded.path.split("?")[0] ?? "";

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

/** What one fake model server holds: the scripted answers, the requests it got, its timers. */
interface FakeModelState {
  readonly models: readonly string[];
  readonly apiKey: string | undefined;
  readonly requests: RecordedRequest[];
  readonly queue: FakeAnswer[];
  readonly timers: Set<NodeJS.Timeout>;
  readonly chatCalls: ChatCallMoments[];
  chatCallsArrived: number;
  defaultAnswer: FakeAnswer;
}

/** Starts an OpenAI-compatible model server on 127.0.0.1 whose answers a test scripts. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const state: FakeModelState = {
    models: options.models ?? DEFAULT_MODELS,
    apiKey: options.apiKey,
    requests: [],
    queue: [],
    timers: new Set(),
    chatCalls: [],
    chatCallsArrived: 0,
    defaultAnswer: options.defaultAnswer ?? { kind: "echo" },
  };
  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, openAiError(String(error), "server_error", null));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return fakeModelHandle(state, `http://127.0.0.1:${port}/v1`, closer(state, server));
}

/** Closes the server once, however often it is asked. */
function closer(state: FakeModelState, server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve) => {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      server.close(() => resolve());
      // Hanging answers keep their sockets open; close them rather than wait for the client.
      server.closeAllConnections();
    });
    return closing;
  };
}

/** What a test holds of a started fake: its address, what it got, and its script. */
function fakeModelHandle(state: FakeModelState, url: string, close: () => Promise<void>): FakeModel {
  const { requests, queue } = state;
  return {
    url,
    requests,
    chatRequests: () => requests.filter((recorded) => CHAT_PATH.test(pathnameOf(recorded))),
    messagesRequests: () =>
      requests.filter((recorded) => recorded.method === "POST" && MESSAGES_PATH.test(pathnameOf(recorded))),
    responsesRequests: () =>
      requests.filter((recorded) => recorded.method === "POST" && RESPONSES_PATH.test(pathnameOf(recorded))),
    toolResults: () =>
      requests.flatMap((recorded) => {
        if (recorded.method !== "POST") return [];
        const pathname = pathnameOf(recorded);
        if (MESSAGES_PATH.test(pathname)) return toolResultsOf("messages", recorded.body);
        if (RESPONSES_PATH.test(pathname)) return toolResultsOf("responses", recorded.body);
        return [];
      }),
    script: (...answers) => {
      queue.push(...answers);
    },
    pendingAnswers: () => queue.length,
    setDefaultAnswer: (answer) => {
      state.defaultAnswer = answer;
    },
    chatCall: (index) => momentsOf(state, index).view(),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function momentsOf(state: FakeModelState, index: number): ChatCallMoments {
  state.chatCalls[index] ??= new ChatCallMoments();
  return state.chatCalls[index];
}

function nextAnswer(state: FakeModelState): FakeAnswer {
  return state.queue.shift() ?? state.defaultAnswer;
}

/** Runs `action` after `ms` unless the response is gone by then; at once (no timer) for 0. */
function later(state: FakeModelState, response: ServerResponse, ms: number, action: () => void): void {
  if (ms <= 0) {
    if (!response.destroyed) action();
    return;
  }
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (!response.destroyed) action();
  }, ms);
  state.timers.add(timer);
  response.once("close", () => {
    clearTimeout(timer);
    state.timers.delete(timer);
  });
}

/** Waits out `delay` answers and never settles `hang`; hands any other answer to `respond`. */
function settle(
  state: FakeModelState,
  response: ServerResponse,
  answer: FakeAnswer,
  respond: (answer: Exclude<FakeAnswer, { kind: "hang" | "delay" }>) => void,
): void {
  if (answer.kind === "hang") return;
  if (answer.kind !== "delay") {
    respond(answer);
    return;
  }
  later(state, response, answer.ms, () => settle(state, response, answer.then, respond));
}

function modelOf(state: FakeModelState, body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === "string" ? model : (state.models[0] ?? "fake-model");
}

function isStreamRequest(body: unknown): boolean {
  return (body as { stream?: unknown }).stream === true;
}

/** Writes a `stream` answer piece by piece (server-sent events, or one body at the end). */
function streamPieces(
  state: FakeModelState,
  response: ServerResponse,
  body: unknown,
  answer: Extract<FakeAnswer, { kind: "stream" }>,
  moments: ChatCallMoments,
): void {
  const model = modelOf(state, body);
  const isStream = isStreamRequest(body);
  const finishReason = answer.finishReason ?? "stop";
  const { chunk, usage } = completionChunks(model);
  const sent = answer.stallAfter === undefined ? answer.pieces : answer.pieces.slice(0, answer.stallAfter);
  let written = "";
  if (isStream) {
    response.writeHead(200, SSE_HEADERS);
    response.write(`data: ${chunk({ role: "assistant", content: "" }, null)}\n\n`);
  }
  const finish = () => {
    if (answer.stallAfter !== undefined) {
      moments.stalled.resolve();
      return;
    }
    if (!isStream) {
      sendJson(response, 200, chatCompletion(model, written, finishReason, JSON.stringify(body)));
      return;
    }
    response.write(`data: ${chunk({}, finishReason)}\n\n`);
    if (includesUsage(body)) response.write(`data: ${usage(JSON.stringify(body), written)}\n\n`);
    response.end("data: [DONE]\n\n");
  };
  const writePiece = (index: number) => {
    const piece = sent[index];
    if (piece === undefined) {
      finish();
      return;
    }
    written += piece;
    if (isStream) response.write(`data: ${chunk({ content: piece }, null)}\n\n`);
    if (index === 0) moments.firstPiece.resolve();
    later(state, response, answer.pieceMs ?? 0, () => writePiece(index + 1));
  };
  later(state, response, answer.firstPieceMs ?? 0, () => writePiece(0));
}

function answerChat(
  state: FakeModelState,
  response: ServerResponse,
  body: unknown,
  answer: FakeAnswer,
  moments: ChatCallMoments,
): void {
  settle(state, response, answer, (ready) => {
    switch (ready.kind) {
      case "shell-from-prompt":
        answerChat(state, response, body, ready.otherwise, moments);
        return;
      case "status":
        sendJson(
          response,
          ready.status,
          ready.body ?? openAiError("error", "server_error", null),
          ready.headers,
        );
        return;
      case "echo": {
        const content =
          isStreamRequest(body) && !asksForStructuredOutput(body)
            ? `Fake answer to: ${lastUserMessage(body)}`
            : JSON.stringify(echoBrief(body));
        answerChat(state, response, body, { kind: "content", content }, moments);
        return;
      }
      case "stream":
        streamPieces(state, response, body, ready, moments);
        return;
      case "content":
        sendContent(state, response, body, ready);
        return;
    }
  });
}

/** Sends a whole `content` answer: one completion, or its server-sent events when the request streams. */
function sendContent(
  state: FakeModelState,
  response: ServerResponse,
  body: unknown,
  answer: Extract<FakeAnswer, { kind: "content" }>,
): void {
  const model = modelOf(state, body);
  const finishReason = answer.finishReason ?? "stop";
  if (!isStreamRequest(body)) {
    sendJson(
      response,
      200,
      chatCompletion(model, answer.content, finishReason, JSON.stringify(body), answer.refusal ?? null),
    );
    return;
  }
  response.writeHead(200, SSE_HEADERS);
  const events = streamEvents(model, answer.content, finishReason, answer.refusal ?? null);
  if (includesUsage(body)) {
    events.splice(-1, 0, completionChunks(model).usage(JSON.stringify(body), answer.content ?? ""));
  }
  for (const event of events) response.write(`data: ${event}\n\n`);
  response.end();
}

function answerAgentCall(
  state: FakeModelState,
  format: AgentWireFormat,
  response: ServerResponse,
  body: unknown,
  answer: FakeAnswer = nextAnswer(state),
): void {
  // Agent turns take a streamed answer whole: their timing matters only to brief calls.
  settle(state, response, answer, (ready) => {
    if (ready.kind !== "shell-from-prompt") {
      answerAgent(
        format,
        response,
        body,
        ready.kind === "stream" ? { kind: "content", content: ready.pieces.join("") } : ready,
        modelOf(state, body),
      );
      return;
    }
    const decision = decideShellFromPrompt(format, body, ready);
    if (decision.kind === "otherwise") answerAgentCall(state, format, response, body, ready.otherwise);
    else
      answerAgent(
        format,
        response,
        body,
        decision.kind === "text" ? { kind: "content", content: decision.text } : decision,
        modelOf(state, body),
      );
  });
}

function isAuthorized(apiKey: string | undefined, request: IncomingMessage): boolean {
  if (apiKey === undefined) return true;
  // Claude Code sends Anthropic's `x-api-key`; OpenAI clients send a bearer token.
  return request.headers.authorization === `Bearer ${apiKey}` || request.headers["x-api-key"] === apiKey;
}

/** Records the request, then answers it by its path: models, chat completions, token counts, agent turns. */
async function handle(
  state: FakeModelState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = await readBody(request);
  const path = request.url ?? "/";
  const recorded: RecordedRequest = { method: request.method ?? "GET", path, headers: request.headers, body };
  state.requests.push(recorded);
  const pathname = path.split("?")[0] ?? "/";
  const isPost = request.method === "POST";
  const isMessages = isPost && (MESSAGES_PATH.test(pathname) || COUNT_TOKENS_PATH.test(pathname));
  if (!isAuthorized(state.apiKey, request)) {
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
    sendJson(response, 200, modelList(state.models));
    return;
  }
  if (isPost && CHAT_PATH.test(pathname)) {
    answerChatRequest(state, response, recorded);
    return;
  }
  if (isPost && COUNT_TOKENS_PATH.test(pathname)) {
    sendJson(response, 200, anthropicTokenCount(JSON.stringify(body)));
    return;
  }
  const agentFormat = isPost ? agentFormatOf(pathname) : undefined;
  if (agentFormat !== undefined) {
    answerAgentRequest(state, response, agentFormat, body);
    return;
  }
  sendJson(response, 404, openAiError(`Unknown path ${pathname}`, "invalid_request_error", null));
}

/** A chat completion: its moments are recorded for the test (arrived, finished, closed by the client). */
function answerChatRequest(state: FakeModelState, response: ServerResponse, recorded: RecordedRequest): void {
  const { body } = recorded;
  if (typeof body !== "object" || body === null) {
    sendJson(response, 400, openAiError("The body must be JSON.", "invalid_request_error", null));
    return;
  }
  const moments = momentsOf(state, state.chatCallsArrived++);
  response.once("finish", () => moments.finished.resolve());
  response.once("close", () => {
    if (!response.writableFinished) moments.closedByClient.resolve();
  });
  moments.arrived.resolve(recorded);
  answerChat(state, response, body, nextAnswer(state), moments);
}

function agentFormatOf(pathname: string): AgentWireFormat | undefined {
  if (MESSAGES_PATH.test(pathname)) return "messages";
  if (RESPONSES_PATH.test(pathname)) return "responses";
  return undefined;
}

/** An agent turn (Anthropic messages or OpenAI responses), answered in its own wire format. */
function answerAgentRequest(
  state: FakeModelState,
  response: ServerResponse,
  format: AgentWireFormat,
  body: unknown,
): void {
  if (typeof body !== "object" || body === null) {
    const message = "The body must be JSON.";
    sendJson(
      response,
      400,
      format === "messages"
        ? anthropicError(400, message)
        : openAiError(message, "invalid_request_error", null),
    );
    return;
  }
  answerAgentCall(state, format, response, body);
}
