import type { BriefCard, PermissionAgent, PermissionShortened } from "@ringback/protocol";
import { type AskPhrases, askPhrasesFor } from "./permission-ask-phrases.js";

/** What an agent asked, as the hook passed it on (`PermissionRequestPost`). */
export interface PermissionAskFacts {
  agent: PermissionAgent;
  toolName: string;
  toolInput: unknown;
  lastWords: string | null;
  cwd: string;
  shortened: readonly PermissionShortened[];
  /** The brief language: the ask is said in it when Ringback has its sentences (Chinese), else in English. */
  language?: string;
}

/** The ask in words: the call's title, the paragraph read aloud, and the card with the exact request. */
export interface PermissionAskWords {
  title: string;
  spoken: string;
  card: BriefCard;
  /** The language the words are in (a BCP 47 tag), for the brief's meta and the voice that reads them. */
  language: string;
}

const AGENT_NAMES: Record<PermissionAgent, string> = { "claude-code": "Claude Code", codex: "Codex" };

const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

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
  const { phrases, language } = askPhrasesFor(facts.language);
  const agent = AGENT_NAMES[facts.agent];
  const action = askedAction(phrases, facts.toolName, facts.toolInput);
  const lastWords = facts.lastWords?.trim() ? phrases.lastWords(facts.lastWords.trim()) : phrases.saidNothing;
  const spoken = [
    phrases.waiting(agent, projectName(facts.cwd)),
    action.sentence,
    lastWords,
    ...facts.shortened.map((part) => phrases.shortened[part]),
  ].join("\n\n");
  return { title: phrases.title(agent, action.verb), spoken, card: action.card, language };
}

function askedAction(phrases: AskPhrases, toolName: string, toolInput: unknown): AskedAction {
  const input = isRecord(toolInput) ? toolInput : {};
  const command = commandText(input.command);
  if (toolName === "Bash" && command !== undefined) {
    const description = textField(input, "description");
    return {
      verb: phrases.runVerb,
      sentence: `${phrases.runSentence(command)}${description ? `\n\n${phrases.describedAs(description)}` : ""}`,
      card: { title: phrases.commandCard, body: command },
    };
  }
  const filePath = textField(input, "file_path") ?? textField(input, "notebook_path");
  if (FILE_TOOLS.has(toolName) && filePath !== undefined)
    return fileAction(phrases, toolName, filePath, input);
  const url = textField(input, "url");
  if (toolName === "WebFetch" && url !== undefined) {
    return {
      verb: phrases.fetchVerb,
      sentence: phrases.fetchSentence(url),
      card: { title: phrases.addressCard, body: url },
    };
  }
  const json = JSON.stringify(toolInput ?? null, null, 2) ?? "null";
  return {
    verb: phrases.toolVerb(toolName),
    sentence: phrases.toolSentence(toolName, json),
    card: { title: phrases.toolCard(toolName), body: json },
  };
}

function fileAction(
  phrases: AskPhrases,
  toolName: string,
  filePath: string,
  input: Record<string, unknown>,
): AskedAction {
  const card = { title: phrases.fileCard, body: filePath };
  if (toolName === "Write") {
    const lines = lineCount(textField(input, "content") ?? "");
    return { verb: phrases.writeVerb, sentence: phrases.writeSentence(lines, filePath), card };
  }
  return { verb: phrases.editVerb, sentence: phrases.editSentence(filePath), card };
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
