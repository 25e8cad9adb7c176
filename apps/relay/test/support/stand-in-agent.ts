import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One run of the stand-in agent CLI: its arguments and the directory it ran in. */
interface AgentRun {
  readonly argv: string[];
  readonly cwd: string;
}

export interface StandInAgent {
  /** The executable to name in RINGBACK_CLAUDE_BIN. */
  readonly bin: string;
  runs(): Promise<AgentRun[]>;
}

/**
 * A stand-in for the `claude` CLI (an outside program in real life) in `directory`: it records each run's
 * arguments and working directory and exits 0, as a resumed agent that finished its turn.
 */
export async function standInClaude(directory: string): Promise<StandInAgent> {
  await mkdir(directory, { recursive: true });
  const runsPath = join(directory, "runs.jsonl");
  const scriptPath = join(directory, "claude.mjs");
  await writeFile(
    scriptPath,
    `import { appendFileSync } from "node:fs";
appendFileSync(${JSON.stringify(runsPath)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }) + "\\n");
`,
  );
  const bin = join(directory, "claude");
  await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${scriptPath}" "$@"\n`);
  await chmod(bin, 0o755);
  return {
    bin,
    async runs() {
      const text = await readFile(runsPath, "utf8").catch(() => "");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as AgentRun);
    },
  };
}
