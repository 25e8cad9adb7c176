import type { BriefCard, PermissionAgent, PermissionShortened } from "@ringback/protocol";

/** What an agent asked, as the hook passed it on (`PermissionRequestPost`). */
export interface PermissionAskFacts {
  agent: PermissionAgent;
  toolName: string;
  toolInput: unknown;
  lastWords: string | null;
  cwd: string;
  shortened: readonly PermissionShortened[];
  /** The brief language; the ask is said in English whatever it is, for now. */
  language?: string;
}

/** The ask in words: the call's title, the paragraph read aloud, and the card with the exact request. */
export interface PermissionAskWords {
  title: string;
  spoken: string;
  card: BriefCard;
}

const AGENT_NAMES: Record<PermissionAgent, string> = { "claude-code": "Claude Code", codex: "Codex" };

const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

const SHORTENED_SENTENCES: Record<PermissionShortened, string> = {
  toolInput: "The request was too long to send whole: its input was shortened.",
  lastWords: "Its last words were too long to send whole: they were shortened.",
};

/** What the agent wants to do, in words: a short verb phrase, the sentence that says it, and the card. */
interface AskedAction {
  verb: string;
  sentence: string;
  card: BriefCard;
}

/**
 * Says an agent's permission ask in plain words without a model: which agent, which project, the exact command,
 * file or address (never shortened here), and the agent's last words before it asked.
 */
export function describePermissionAsk(facts: PermissionAskFacts): PermissionAskWords {
  const agent = AGENT_NAMES[facts.agent];
  const action = askedAction(facts.toolName, facts.toolInput);
  const lastWords = facts.lastWords?.trim()
    ? `Before asking, it said: ${facts.lastWords.trim()}`
    : "It said nothing before asking.";
  const spoken = [
    `${agent} is waiting for your permission in the project ${projectName(facts.cwd)}.`,
    action.sentence,
    lastWords,
    ...facts.shortened.map((part) => SHORTENED_SENTENCES[part]),
  ].join("\n\n");
  return { title: `${agent} needs you: ${action.verb}`, spoken, card: action.card };
}

function askedAction(toolName: string, toolInput: unknown): AskedAction {
  const input = isRecord(toolInput) ? toolInput : {};
  const command = commandText(input.command);
  if (toolName === "Bash" && command !== undefined) {
    const description = textField(input, "description");
    return {
      verb: "run a command",
      sentence: `It asks to run this command: ${command}${description ? `\n\nIt describes it as: ${description}` : ""}`,
      card: { title: "The command", body: command },
    };
  }
  const filePath = textField(input, "file_path") ?? textField(input, "notebook_path");
  if (FILE_TOOLS.has(toolName) && filePath !== undefined) return fileAction(toolName, filePath, input);
  const url = textField(input, "url");
  if (toolName === "WebFetch" && url !== undefined) {
    return {
      verb: "open a web address",
      sentence: `It asks to fetch this address: ${url}`,
      card: { title: "The address", body: url },
    };
  }
  const json = JSON.stringify(toolInput ?? null, null, 2) ?? "null";
  return {
    verb: `use ${toolName}`,
    sentence: `It asks to use the tool ${toolName} with this input: ${json}`,
    card: { title: `The tool ${toolName}`, body: json },
  };
}

function fileAction(toolName: string, filePath: string, input: Record<string, unknown>): AskedAction {
  const card = { title: "The file", body: filePath };
  if (toolName === "Write") {
    const lines = lineCount(textField(input, "content") ?? "");
    return {
      verb: "write a file",
      sentence: `It asks to write ${lines} ${lines === 1 ? "line" : "lines"} to the file ${filePath}`,
      card,
    };
  }
  return { verb: "edit a file", sentence: `It asks to edit the file ${filePath}`, card };
}

/** Claude Code gives a string; Codex may give the command as its argument list. */
function commandText(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string")) {
    return value.join(" ");
  }
  return undefined;
}

/** The project is the last folder of the agent's working directory. */
function projectName(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter((part) => part !== "");
  return parts.at(-1) ?? cwd;
}

function lineCount(content: string): number {
  if (content === "") return 0;
  return content.replace(/\r?\n$/, "").split(/\r?\n/).length;
}

function textField(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
