import { EventId, Report } from "@ringback/protocol";

const EVENT_ID_MAX_CHARS = 128;

function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

/** An event id from a file name: `fix login.md` -> `fix-login`. */
function eventIdFromFileName(path: string): string {
  const stem = fileName(path).replace(/\.[^.]*$/, "");
  const id = stem
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, EVENT_ID_MAX_CHARS);
  return EventId.safeParse(id).success ? id : "report";
}

/**
 * A report file for `brief-eval`: a `.json` file is a protocol `Report` (as the outbox keeps it); any other
 * file is the agent's final reply as plain text, briefed as a Claude Code report.
 * Node only: `node:fs` is loaded when a file is read, so the package's entry stays loadable in a browser.
 */
export async function readReportFile(path: string): Promise<Report> {
  const { readFile, stat } = await import("node:fs/promises");
  const text = await readFile(path, "utf8");
  if (path.toLowerCase().endsWith(".json")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const report = Report.safeParse(json);
    if (!report.success) {
      const issues = report.error.issues.map(
        (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
      );
      throw new Error(`${path} is not a Ringback report: ${issues.join("; ")}`);
    }
    return report.data;
  }
  const { mtime } = await stat(path);
  return { eventId: eventIdFromFileName(path), source: "claude-code", occurredAt: mtime.toISOString(), text };
}
