/**
 * Tool calls for agent turns: the `RUN: <command>` prompt convention (`answers.shellFromPrompt`) and reading the
 * tool results an agent sends back, in the two wire formats agent CLIs speak.
 */
import { lastUserText } from "./agent-prompt.js";

/** The shell tool Claude Code offers (Messages API): `Bash {command, description}`. */
export const CLAUDE_SHELL_TOOL = "Bash";
/** The shell tool Codex 0.169.0 offers (Responses API): `exec_command {cmd, …}` (unified exec). */
export const CODEX_SHELL_TOOL = "exec_command";

/** The words that ask for a shell call: `RUN: <command>` on a line of the user's last words. */
const RUN_LINE = /^RUN: (.+)$/m;

/** `messages`: Anthropic `POST /v1/messages`; `responses`: OpenAI `POST /v1/responses`. */
export type AgentWireFormat = "messages" | "responses";

/** One tool call the fake makes: the tool's name and its input (the Responses API sends it as a JSON string). */
export interface FakeToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Text before the call in the same answer (the agent's "last words" before it asks), if any. */
  say?: string;
}

/** What the agent sent back for one tool call. */
export interface FakeToolResult {
  format: AgentWireFormat;
  /** Claude's `tool_use_id` or Codex's `call_id`: the id of the fake's call. */
  callId: string;
  /** The result as text (text parts joined by a line break). */
  text: string;
  /** Claude's `is_error` (Codex has no such flag: false). */
  isError: boolean;
}

/** The options of a `shell-from-prompt` answer (`answers.shellFromPrompt`). */
export interface ShellFromPromptOptions {
  /** Codex: ask to run outside the sandbox (`sandbox_permissions: "require_escalated"`), which is what makes
   * Codex ask for approval. Default true. */
  escalate?: boolean;
  /** Claude's `description`, Codex's `justification`. Default "Run the command the user asked for". */
  description?: string;
  /** Words before the call, in the same answer. Default none. */
  say?: string;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { text?: unknown } | null) => (typeof part?.text === "string" ? part.text : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .map((tool: { name?: unknown } | null) => tool?.name)
    .filter((name): name is string => typeof name === "string");
}

/**
 * The tool results at the end of a request: in a Messages request the `tool_result` blocks of the last message
 * when it is the user's; in a Responses request the `function_call_output` items after the last other item.
 * Empty when the request does not end with tool results (a new prompt, a title request…).
 */
export function toolResultsOf(format: AgentWireFormat, body: unknown): FakeToolResult[] {
  if (format === "messages") {
    const messages = (body as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages)) return [];
    const last = messages.at(-1) as { role?: unknown; content?: unknown } | undefined;
    if (last?.role !== "user" || !Array.isArray(last.content)) return [];
    return (
      last.content as { type?: unknown; tool_use_id?: unknown; content?: unknown; is_error?: unknown }[]
    )
      .filter((part) => part?.type === "tool_result")
      .map((part) => ({
        format,
        callId: String(part.tool_use_id ?? ""),
        text: textOf(part.content),
        isError: part.is_error === true,
      }));
  }
  const input = (body as { input?: unknown } | null)?.input;
  if (!Array.isArray(input)) return [];
  const results: FakeToolResult[] = [];
  for (const item of [...(input as { type?: unknown; call_id?: unknown; output?: unknown }[])].reverse()) {
    if (item?.type !== "function_call_output" && item?.type !== "custom_tool_call_output") break;
    const output = item.output;
    results.unshift({
      format,
      callId: String(item.call_id ?? ""),
      text: typeof output === "string" ? output : textOf(output) || JSON.stringify(output),
      isError: false,
    });
  }
  return results;
}

/** How a `shell-from-prompt` answer goes for one agent request. */
export type ShellDecision =
  | { kind: "tool-call"; call: FakeToolCall }
  | { kind: "text"; text: string }
  | { kind: "otherwise" };

/** The final text after tool results: each result quoted, so a test sees what reached the model. */
function toolResultAnswer(results: readonly FakeToolResult[]): string {
  return results.map((result) => `Tool result${result.isError ? " (error)" : ""}: ${result.text}`).join("\n");
}

/**
 * Decides a `shell-from-prompt` answer: a request ending with tool results gets a final text quoting them; one
 * whose user's last words hold `RUN: <command>` and that offers the agent's shell tool gets a call of that tool;
 * anything else (a title request, a review without tools, a turn without `RUN:`) gets the `otherwise` answer.
 */
export function decideShellFromPrompt(
  format: AgentWireFormat,
  body: unknown,
  options: ShellFromPromptOptions,
): ShellDecision {
  const results = toolResultsOf(format, body);
  if (results.length > 0) return { kind: "text", text: toolResultAnswer(results) };
  const command = RUN_LINE.exec(lastUserText(body))?.[1]?.trim();
  if (command === undefined || command.length === 0) return { kind: "otherwise" };
  const description = options.description ?? "Run the command the user asked for";
  const say = options.say === undefined ? {} : { say: options.say };
  const tools = toolNames(body);
  if (format === "messages") {
    if (!tools.includes(CLAUDE_SHELL_TOOL)) return { kind: "otherwise" };
    return { kind: "tool-call", call: { name: CLAUDE_SHELL_TOOL, input: { command, description }, ...say } };
  }
  if (!tools.includes(CODEX_SHELL_TOOL)) return { kind: "otherwise" };
  const escalation =
    options.escalate === false
      ? {}
      : { sandbox_permissions: "require_escalated", justification: description };
  return {
    kind: "tool-call",
    call: { name: CODEX_SHELL_TOOL, input: { cmd: command, yield_time_ms: 10_000, ...escalation }, ...say },
  };
}
