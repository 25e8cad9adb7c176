/**
 * A small OpenAI-compatible chat server around node-llama-cpp (llama.cpp's library; its npm packages ship no
 * llama-server), behaving as `llama-server -c 4096 --jinja --reasoning-budget 0` does for what a brief uses:
 * POST /v1/chat/completions with stream true (server-sent events), the model's chat template rendered with
 * thinking off, `response_format` json_schema or json_object as a grammar, `max_tokens`, usage with the prompt and
 * output tokens, the prompt's cached prefix reused (llama-server's cache_prompt), one request at a time, and the work
 * stopped when the client closes the connection. Run by bench/local-model.ts:
 *
 *   node bench/local-llama-server.ts --llama-dir DIR --model FILE [--threads N] [--context 4096] [--port 0]
 *
 * Prints `llama server listening on http://127.0.0.1:PORT/v1`, then per request `llama request started N` and, once it
 * has ended (answered, cut, or closed by the client), `llama request {json}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

type Token = number;

// The part of node-llama-cpp's API used here (its types are not in the workspace: the bench installs it outside).
interface Grammar {
  readonly _brand?: "grammar";
}
interface Sequence {
  readonly contextTokens: Token[];
  readonly nextTokenIndex: number;
  eraseContextTokenRanges(ranges: { start: number; end: number }[]): Promise<void>;
  evaluateWithoutGeneratingNewTokens(tokens: Token[]): Promise<void>;
  evaluate(tokens: Token[], options: Record<string, unknown>): AsyncGenerator<Token, void, void>;
}
interface Model {
  tokenize(text: string, specialTokens: boolean): Token[];
  detokenize(tokens: readonly Token[]): string;
  readonly fileInfo: { metadata: { tokenizer?: { chat_template?: string } } };
  createContext(options: Record<string, unknown>): Promise<{ getSequence(): Sequence }>;
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers: number }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<Grammar>;
  getGrammarFor(type: "json"): Promise<Grammar>;
}
interface NodeLlamaCpp {
  getLlama(options: Record<string, unknown>): Promise<Llama>;
  LlamaGrammarEvaluationState: new (options: { model: Model; grammar: Grammar }) => unknown;
}
interface Jinja {
  Template: new (source: string) => { render(context: Record<string, unknown>): string };
}

const { values: args } = parseArgs({
  options: {
    "llama-dir": { type: "string" },
    model: { type: "string" },
    threads: { type: "string", default: "2" },
    context: { type: "string", default: "4096" },
    batch: { type: "string", default: "512" },
    port: { type: "string", default: "0" },
  },
});
const llamaDir = args["llama-dir"];
const modelPath = args.model;
if (!llamaDir || !modelPath) throw new Error("usage: local-llama-server.ts --llama-dir DIR --model FILE");
const threads = Number(args.threads);
const contextSize = Number(args.context);
const batchSize = Number(args.batch);

const fromLlamaDir = (path: string) => import(pathToFileURL(join(llamaDir, "node_modules", path)).href);
const { getLlama, LlamaGrammarEvaluationState } = (await fromLlamaDir(
  "node-llama-cpp/dist/index.js",
)) as NodeLlamaCpp;
const { Template } = (await fromLlamaDir("@huggingface/jinja/dist/index.js")) as Jinja;

// CPU only, the prebuilt binary or nothing (never a build, never a download).
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error", maxThreads: threads });
const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
const context = await model.createContext({ contextSize, batchSize, threads, sequences: 1 });
const sequence = context.getSequence();
const chatTemplate = new Template(model.fileInfo.metadata.tokenizer?.chat_template ?? "");

// llama-server's default sampling (its README): temperature 0.8, top-k 40, top-p 0.95, min-p 0.05.
const SAMPLING = { temperature: 0.8, topK: 40, topP: 0.95, minP: 0.05 };

interface ChatRequest {
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  seed?: number;
  response_format?: { type: string; json_schema?: { schema?: unknown } };
}

/** What one request did, printed as a `llama request` line (bench/local-model.ts reads it back). */
export interface RequestRecord {
  id: number;
  promptTokens: number;
  /** Prompt tokens reused from the previous request's cache (not read again). */
  cachedTokens: number;
  promptMs: number;
  /** CPU time of the server's process (all its threads) while reading: the wall time it would take alone. */
  promptCpuMs: number;
  outputTokens: number;
  outputMs: number;
  outputCpuMs: number;
  maxTokens: number | null;
  finish: "stop" | "length" | "closed" | "error";
  error?: string;
}

const grammars = new Map<string, Promise<Grammar>>();
function grammarFor(format: ChatRequest["response_format"]): Promise<Grammar> | null {
  if (format?.type === "json_object") return llama.getGrammarFor("json");
  if (format?.type !== "json_schema" || !format.json_schema?.schema) return null;
  const key = JSON.stringify(format.json_schema.schema);
  let grammar = grammars.get(key);
  if (!grammar) {
    grammar = llama.createGrammarForJsonSchema(format.json_schema.schema);
    grammars.set(key, grammar);
  }
  return grammar;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** The process's CPU time (user and system, every thread: llama.cpp computes on threads of its own), in ms. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

let requests = 0;
/** One request at a time, as llama-server with one slot. */
let queue: Promise<unknown> = Promise.resolve();

/** Makes the sequence hold `prompt` but its last token, reading only what the cache does not already hold. */
async function readPrompt(prompt: Token[], isClosed: () => boolean): Promise<number> {
  const cached = sequence.contextTokens;
  let common = 0;
  while (common < prompt.length - 1 && common < cached.length && cached[common] === prompt[common]) common++;
  if (common < sequence.nextTokenIndex)
    await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  // One batch at a time, so a closed connection stops the work between batches as llama-server does.
  for (let start = common; start < prompt.length - 1 && !isClosed(); start += batchSize)
    await sequence.evaluateWithoutGeneratingNewTokens(
      prompt.slice(start, Math.min(start + batchSize, prompt.length - 1)),
    );
  return common;
}

async function complete(body: ChatRequest, response: ServerResponse, isClosed: () => boolean): Promise<void> {
  const id = ++requests;
  const started = performance.now();
  const cpuStarted = cpuMs();
  const text = chatTemplate.render({
    messages: body.messages,
    add_generation_prompt: true,
    enable_thinking: false,
    bos_token: "",
    eos_token: "<|im_end|>",
  });
  const prompt = model.tokenize(text, true);
  const maxTokens = body.max_tokens ?? null;
  const record: RequestRecord = {
    id,
    promptTokens: prompt.length,
    cachedTokens: 0,
    promptMs: 0,
    promptCpuMs: 0,
    outputTokens: 0,
    outputMs: 0,
    outputCpuMs: 0,
    maxTokens,
    finish: "stop",
  };
  const print = () => console.log(`llama request ${JSON.stringify(record)}`);
  console.log(`llama request started ${id}`);
  if (prompt.length >= contextSize) {
    record.finish = "error";
    record.error = `the prompt has ${prompt.length} tokens, the context ${contextSize}`;
    print();
    // llama-server's answer to a prompt longer than the context.
    sendJson(response, 400, {
      error: {
        code: 400,
        type: "exceed_context_size_error",
        message: `the request exceeds the available context size (${prompt.length} >= ${contextSize})`,
      },
    });
    return;
  }
  const grammar = await grammarFor(body.response_format);
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    `data: ${JSON.stringify({
      id: `chatcmpl-${id}`,
      object: "chat.completion.chunk",
      created,
      model: "local",
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    })}\n\n`;
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.write(chunk({ role: "assistant", content: null }, null));

  record.cachedTokens = await readPrompt(prompt, isClosed);
  const generated: Token[] = [];
  let sent = "";
  let promptDone = performance.now();
  let promptCpuDone = cpuMs();
  const roomLeft = contextSize - prompt.length;
  const limit = Math.min(maxTokens ?? roomLeft, roomLeft);
  if (!isClosed()) {
    const options = {
      ...SAMPLING,
      ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
      seed: body.seed ?? id,
      ...(grammar ? { grammarEvaluationState: new LlamaGrammarEvaluationState({ model, grammar }) } : {}),
    };
    let isFirst = true;
    for await (const token of sequence.evaluate([prompt.at(-1) as Token], options)) {
      // The first token comes once the last prompt token is read: that is still prompt time.
      if (isFirst) {
        promptDone = performance.now();
        promptCpuDone = cpuMs();
        isFirst = false;
      }
      generated.push(token);
      const decoded = model.detokenize(generated);
      // Hold back a multi-byte character until all its tokens came.
      if (!decoded.endsWith("\uFFFD") && decoded.length > sent.length) {
        response.write(chunk({ content: decoded.slice(sent.length) }, null));
        sent = decoded;
      }
      if (isClosed()) break;
      if (generated.length >= limit) break;
    }
  }
  const ended = performance.now();
  record.promptMs = Math.round(promptDone - started);
  record.outputTokens = generated.length;
  record.outputMs = Math.round(ended - promptDone);
  record.promptCpuMs = Math.round(promptCpuDone - cpuStarted);
  record.outputCpuMs = Math.round(cpuMs() - promptCpuDone);
  record.finish = isClosed() ? "closed" : generated.length >= limit ? "length" : "stop";
  print();
  if (isClosed()) return;
  response.write(chunk({}, record.finish));
  response.write(
    `data: ${JSON.stringify({
      id: `chatcmpl-${id}`,
      object: "chat.completion.chunk",
      created,
      model: "local",
      choices: [],
      usage: {
        prompt_tokens: prompt.length,
        completion_tokens: generated.length,
        total_tokens: prompt.length + generated.length,
      },
      timings: {
        prompt_n: prompt.length - record.cachedTokens,
        prompt_ms: record.promptMs,
        predicted_n: generated.length,
        predicted_ms: record.outputMs,
      },
    })}\n\n`,
  );
  response.end("data: [DONE]\n\n");
}

const server = createServer((request, response) => {
  const path = request.url?.split("?")[0];
  if (request.method === "GET" && path === "/v1/models") {
    sendJson(response, 200, { object: "list", data: [{ id: "local", object: "model", owned_by: "bench" }] });
    return;
  }
  if (request.method !== "POST" || path !== "/v1/chat/completions") {
    sendJson(response, 404, { error: { code: 404, message: "not found" } });
    return;
  }
  let isClosed = false;
  response.on("close", () => {
    isClosed = !response.writableFinished;
  });
  const work = queue.then(async () => {
    const body = JSON.parse(await readBody(request)) as ChatRequest;
    if (body.stream !== true) {
      sendJson(response, 400, { error: { code: 400, message: "this bench server only streams" } });
      return;
    }
    await complete(body, response, () => isClosed);
  });
  queue = work.catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) sendJson(response, 500, { error: { code: 500, message: String(error) } });
    else response.end();
  });
});
server.listen(Number(args.port), "127.0.0.1", () => {
  const address = server.address();
  if (typeof address === "object" && address)
    console.log(`llama server listening on http://127.0.0.1:${address.port}/v1`);
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
