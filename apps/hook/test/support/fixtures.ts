import { copyFile, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

export type Payload = Record<string, unknown>;

export async function readPayload(name: "claude-code-stop" | "codex-stop"): Promise<Payload> {
  return JSON.parse(await readFile(join(FIXTURES, `${name}.json`), "utf8")) as Payload;
}

/**
 * The PermissionRequest payloads the genuine CLIs sent (Claude Code 2.1.330, Codex 0.169.0), as captured in
 * fakes/agent-clis (see its PERMISSION-HOOKS.md); read in place, never written.
 */
const GENUINE_FIXTURES = join(FIXTURES, "..", "..", "..", "..", "fakes", "agent-clis", "test", "fixtures");

export type GenuinePermissionPayload =
  | "permission-request-claude-code"
  | "permission-request-claude-code-write"
  | "permission-request-codex"
  | "permission-request-codex-tui";

export async function readGenuinePayload(name: GenuinePermissionPayload): Promise<Payload> {
  return JSON.parse(await readFile(join(GENUINE_FIXTURES, `${name}.json`), "utf8")) as Payload;
}

/** Copies a transcript fixture into `directory`, as the agent would have written it there. */
export async function placeTranscript(
  name: "claude-code-transcript" | "codex-rollout",
  directory: string,
): Promise<string> {
  const path = join(directory, `${name}.jsonl`);
  await copyFile(join(FIXTURES, `${name}.jsonl`), path);
  return path;
}

/** Stdin as each agent writes it: Claude ends the JSON with a newline, Codex does not. */
export function stdinFor(agent: "claude-code" | "codex", payload: Payload): string {
  return agent === "claude-code" ? `${JSON.stringify(payload)}\n` : JSON.stringify(payload);
}
