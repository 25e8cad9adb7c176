// The README as a newcomer reads it: its sections, their code blocks, and the commands their text tells a person to
// run, each with the line it is on (for a failure that names the line to fix).

/** A `## heading` section of a Markdown document: its text up to the next `## ` heading, and where it starts. */
export interface MarkdownSection {
  readonly heading: string;
  readonly text: string;
  /** The 1-based line of the document the section's first line (after the heading) is on. */
  readonly firstLine: number;
}

/** A command written in the text: a code span that starts with a program a person runs. */
interface ReadmeCommand {
  /** The span with its whitespace (a line break inside it too) made single spaces. */
  readonly command: string;
  /** The 1-based line of the document it starts on. */
  readonly line: number;
}

/** The programs a code span starts with when it is a command to run, not a name, a path or an option. */
const PROGRAMS = new Set(["npx", "pnpm", "node", "ringback", "ringback-hook", "ringback-relay"]);

/** The `## heading` section; throws naming the heading when the document has none. */
export function markdownSection(markdown: string, heading: string): MarkdownSection {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) throw new Error(`the README has no "## ${heading}" section`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return {
    heading,
    text: lines.slice(start + 1, end === -1 ? undefined : end).join("\n"),
    firstLine: start + 2,
  };
}

/** The contents of the section's fenced code blocks, in order, without their fences. */
export function codeBlocks(section: MarkdownSection): string[] {
  return [...section.text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]?.trim() ?? "");
}

/** The commands the section's text (outside its code blocks) tells a person to run. */
export function textCommands(section: MarkdownSection): ReadmeCommand[] {
  // Code blocks are blanked, not cut, so the line numbers of what follows stay right.
  const prose = section.text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, " "));
  const commands: ReadmeCommand[] = [];
  for (const match of prose.matchAll(/`([^`]+)`/g)) {
    const command = (match[1] ?? "").replace(/\s+/g, " ").trim();
    if (!PROGRAMS.has(command.split(" ")[0] ?? "")) continue;
    const line = section.firstLine + prose.slice(0, match.index).split("\n").length - 1;
    commands.push({ command, line });
  }
  return commands;
}

/** `npx --yes pnpm@<version> <script> [args]`, split; null when the command is not that. */
export function pinnedPnpmCommand(
  command: string,
): { version: string; script: string; args: string[] } | null {
  const match = /^npx --yes pnpm@(\S+) (\S+)((?: \S+)*)$/.exec(command.trim());
  if (!match) return null;
  return {
    version: match[1] ?? "",
    script: match[2] ?? "",
    args: (match[3] ?? "").split(" ").filter((part) => part !== ""),
  };
}

/**
 * A command line as a shell splits it, for the simple lines a README or a start screen prints: words separated by
 * spaces, double- or single-quoted words kept whole (no escapes, no variables).
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.trim().matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/**
 * What the README says runs a CLI in a clone, where the packages are not installed: "`ringback` ... is `npx --yes
 * pnpm@<version> ringback`" gives `ringback` -> `["npx", "--yes", "pnpm@<version>", "ringback"]` (or `node <file>`).
 */
export function cloneCommands(markdown: string): Map<string, string[]> {
  const text = markdown.replace(/\s+/g, " ");
  const commands = new Map<string, string[]>();
  for (const match of text.matchAll(/`(ringback[a-z-]*)`(?: \([^)]*\))? is `((?:node|npx) [^`]+)`/g))
    commands.set(match[1] ?? "", shellWords(match[2] ?? ""));
  return commands;
}
