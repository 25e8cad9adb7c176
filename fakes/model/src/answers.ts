import type { ShellFromPromptOptions } from "./agent-tools.js";

/** One answer of the fake model to one model call (chat completions, Messages or Responses). */
export type FakeAnswer =
  /** The assistant's content as is (any text), with a finish reason (default `stop`). */
  | { kind: "content"; content: string | null; finishReason?: string; refusal?: string }
  /** A brief built from the request itself (the default when nothing is scripted). */
  | { kind: "echo" }
  /** An HTTP error with an OpenAI-style error body. */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { kind: "hang" }
  /** Waits, then gives another answer. */
  | { kind: "delay"; ms: number; then: FakeAnswer }
  /**
   * Agent turns (Messages, Responses): `RUN: <command>` in the user's last words makes a call of the agent's shell
   * tool, and tool results get a final text quoting them (`Tool result: <text>`); any other call gets `otherwise`.
   */
  | ({ kind: "shell-from-prompt"; otherwise: FakeAnswer } & ShellFromPromptOptions)
  /**
   * A completion that arrives piece by piece, as a local server writes it: `firstPieceMs` before the first piece
   * (reading the prompt), `pieceMs` between pieces, and with `stallAfter` the stream stops after that many pieces
   * and never ends. Streamed as server-sent events when the request asks for a stream, else sent whole once
   * every piece is "written".
   */
  | {
      kind: "stream";
      pieces: string[];
      finishReason?: string;
      firstPieceMs?: number;
      pieceMs?: number;
      stallAfter?: number;
    };

/** The timing of a streamed answer (`answers.streamed`). */
export interface StreamTiming {
  /** Before the first piece: the time a server spends reading the prompt. */
  firstPieceMs?: number;
  /** Between two pieces. */
  pieceMs?: number;
  /** Send this many pieces, then nothing more while keeping the connection open. */
  stallAfter?: number;
  /** Characters per piece (default 4, about a token). */
  pieceChars?: number;
  finishReason?: string;
}

/** The text cut into pieces of `size` code points. */
function piecesOf(text: string, size: number): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  for (let index = 0; index < characters.length; index += size) {
    pieces.push(characters.slice(index, index + size).join(""));
  }
  return pieces;
}

/** A draft in the brief shape; what a well-behaved model returns. */
export interface FakeBriefDraft {
  title: string;
  spoken: string;
  cards: { title: string; body: string }[];
  openQuestions: string[];
  criticalFacts: { fact: string; covered: boolean }[];
  supplementaryHeading?: string;
}

/** A valid draft: the build is green, one covered fact. Override any field. */
export function briefDraft(overrides: Partial<FakeBriefDraft> = {}): FakeBriefDraft {
  return {
    title: "Login fixed",
    spoken: "The login bug is fixed and all 42 tests pass.",
    cards: [{ title: "Login", body: "The session cookie is now renewed on every request." }],
    openQuestions: [],
    criticalFacts: [{ fact: "All 42 tests pass.", covered: true }],
    ...overrides,
  };
}

function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

/** Builders for the paths a brief generation must survive. */
export const answers = {
  /** Plain text: a chat completion's content, or an agent turn's final answer (Messages, Responses). */
  text(content: string): FakeAnswer {
    return { kind: "content", content };
  },
  /** Any value as JSON content. */
  json(value: unknown): FakeAnswer {
    return { kind: "content", content: JSON.stringify(value) };
  },
  /** JSON inside a markdown fence, as some models answer in `json_object` mode. */
  fenced(value: unknown): FakeAnswer {
    return { kind: "content", content: `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` };
  },
  /** Text that is not JSON (cut in the middle of an object). */
  invalidJson(): FakeAnswer {
    return { kind: "content", content: '{"title": "Login fixed", "spoken": "The login bug is' };
  },
  /** Valid JSON that is not a brief: `cards` missing and `title` a number. */
  schemaMismatch(): FakeAnswer {
    const { cards: _cards, ...rest } = briefDraft();
    return answers.json({ ...rest, title: 42 });
  },
  /** A draft that admits a critical fact is not in the spoken part. */
  uncoveredFact(fact = "The migration must run before Friday.", overrides: Partial<FakeBriefDraft> = {}) {
    const draft = briefDraft(overrides);
    return answers.json({ ...draft, criticalFacts: [...draft.criticalFacts, { fact, covered: false }] });
  },
  /** A draft whose spoken part has exactly `chars` characters. */
  tooLongSpoken(chars: number, overrides: Partial<FakeBriefDraft> = {}): FakeAnswer {
    const sentence = "The login bug is fixed and all 42 tests pass. ";
    const spoken = sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars);
    return answers.json(briefDraft({ ...overrides, spoken }));
  },
  /** A rewrite answer: a draft plus the heading for facts still missing. */
  rewrite(overrides: Partial<FakeBriefDraft> = {}, supplementaryHeading = "Also important"): FakeAnswer {
    return answers.json(briefDraft({ supplementaryHeading, ...overrides }));
  },
  /** The model refused (OpenAI's `message.refusal`, with no content). */
  refusal(text = "I'm sorry, I can't help with that."): FakeAnswer {
    return { kind: "content", content: null, refusal: text };
  },
  /** The provider's content filter stopped the answer. */
  contentFilter(): FakeAnswer {
    return { kind: "content", content: null, finishReason: "content_filter" };
  },
  status(status: number, message = `Fake model error ${status}`): FakeAnswer {
    return { kind: "status", status, body: errorBody(message, "server_error", null) };
  },
  serverError(): FakeAnswer {
    return answers.status(500, "The server had an error while processing your request.");
  },
  rateLimited(): FakeAnswer {
    return {
      kind: "status",
      status: 429,
      body: errorBody("Rate limit reached for requests.", "requests", "rate_limit_exceeded"),
      headers: { "retry-after": "1" },
    };
  },
  hang(): FakeAnswer {
    return { kind: "hang" };
  },
  delay(ms: number, then: FakeAnswer = { kind: "echo" }): FakeAnswer {
    return { kind: "delay", ms, then };
  },
  echo(): FakeAnswer {
    return { kind: "echo" };
  },
  /**
   * For the genuine agent CLIs: a user prompt with a line `RUN: <command>` makes the agent call its shell tool
   * (Claude Code: `Bash {command, description}`; Codex: `exec_command {cmd, sandbox_permissions:
   * "require_escalated", justification}`, which makes Codex ask for approval), and once the agent sends the tool's
   * result back the answer quotes it and ends the turn: `Tool result: <text>` (`Tool result (error): …` for
   * Claude's `is_error`). Every other call (no `RUN:`, a request that does not offer that tool, chat completions)
   * gets `otherwise` (the echo by default). Use it as the default answer: an agent makes more calls than one turn.
   */
  shellFromPrompt(options: ShellFromPromptOptions & { otherwise?: FakeAnswer } = {}): FakeAnswer {
    return { kind: "shell-from-prompt", ...options, otherwise: options.otherwise ?? { kind: "echo" } };
  },
  /**
   * `value` (a brief draft by default; a string is sent as is) streamed piece by piece with the given timing;
   * `stallAfter` makes a server that stops writing in the middle of an answer.
   */
  streamed(timing: StreamTiming = {}, value: unknown = briefDraft()): FakeAnswer {
    const content = typeof value === "string" ? value : JSON.stringify(value);
    return {
      kind: "stream",
      pieces: piecesOf(content, timing.pieceChars ?? 4),
      ...(timing.finishReason === undefined ? {} : { finishReason: timing.finishReason }),
      ...(timing.firstPieceMs === undefined ? {} : { firstPieceMs: timing.firstPieceMs }),
      ...(timing.pieceMs === undefined ? {} : { pieceMs: timing.pieceMs }),
      ...(timing.stallAfter === undefined ? {} : { stallAfter: timing.stallAfter }),
    };
  },
  /** A model that runs on: `pieces` pieces of filler and then `finish_reason: "length"`, as at an output limit. */
  runsOn(pieces: number, timing: Omit<StreamTiming, "finishReason"> = {}): FakeAnswer {
    const content = `{"title": "${"and on ".repeat(pieces)}`;
    return answers.streamed({ ...timing, pieceChars: 7, finishReason: "length" }, content);
  },
};
