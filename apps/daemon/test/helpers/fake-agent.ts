import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readTextIfExists } from "../../src/runtime/files/private-file.js";

/** One run of the fake agent CLI: its arguments and the directory it ran in. */
export interface AgentRun {
  argv: string[];
  cwd: string;
}

/** What the next runs do: write to stderr, take a while, exit with a code. */
export interface AgentBehaviour {
  stderr?: string;
  sleepMs?: number;
  exitCode?: number;
}

const SCRIPT = `import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const here = dirname(fileURLToPath(import.meta.url));
const behaviourPath = join(here, "behaviour.json");
const behaviour = existsSync(behaviourPath) ? JSON.parse(readFileSync(behaviourPath, "utf8")) : {};
appendFileSync(join(here, "runs.jsonl"), JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }) + "\\n");
if (behaviour.stderr) process.stderr.write(behaviour.stderr);
if (behaviour.sleepMs) await new Promise((resolve) => setTimeout(resolve, behaviour.sleepMs));
process.exit(behaviour.exitCode ?? 0);
`;

/**
 * A stand-in for the `claude` / `codex` CLIs (outside the machine in real life): an executable in `directory`
 * that appends its argv and cwd to runs.jsonl and behaves as behaviour.json says.
 */
export async function makeFakeAgent(directory: string) {
  const scriptPath = join(directory, "fake-agent.mjs");
  const bin = join(directory, "agent");
  await writeFile(scriptPath, SCRIPT);
  await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${scriptPath}" "$@"\n`);
  await chmod(bin, 0o755);
  return {
    bin,
    async runs(): Promise<AgentRun[]> {
      const text = (await readTextIfExists(join(directory, "runs.jsonl"))) ?? "";
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as AgentRun);
    },
    behave(behaviour: AgentBehaviour): Promise<void> {
      return writeFile(join(directory, "behaviour.json"), JSON.stringify(behaviour));
    },
  };
}

export type FakeAgent = Awaited<ReturnType<typeof makeFakeAgent>>;
