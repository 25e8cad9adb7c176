import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** One run of the fake agent CLI: what it was started with, where, and what it read on stdin. */
interface AgentCliRun {
  readonly argv: string[];
  readonly cwd: string;
  readonly stdin: string;
}

/** What the next runs do instead of exiting 0 quietly: write to stderr, exit with another code. */
interface AgentCliBehaviour {
  readonly stderr?: string;
  readonly exitCode?: number;
}

// The program behind the fake: appends one JSON line per run next to itself, then behaves as behaviour.json says
// (default: exit 0). stdin is read only when it is not a terminal (the daemon gives the resumed agent none; reading
// a terminal would wait for a person).
const SCRIPT = `import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const here = dirname(fileURLToPath(import.meta.url));
const behaviourPath = join(here, "behaviour.json");
const behaviour = existsSync(behaviourPath) ? JSON.parse(readFileSync(behaviourPath, "utf8")) : {};
let stdin = "";
try {
  if (!process.stdin.isTTY) stdin = readFileSync(0, "utf8");
} catch {}
appendFileSync(join(here, "runs.jsonl"), JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), stdin }) + "\\n");
if (behaviour.stderr) process.stderr.write(behaviour.stderr);
process.exitCode = behaviour.exitCode ?? 0;
`;

export interface FakeAgentCli {
  /** The directory holding the executable; put it first on the daemon's PATH (see `pathWith`). */
  readonly binDir: string;
  /** The executable itself, e.g. `<binDir>/claude`. */
  readonly bin: string;
  /** `PATH` with `binDir` first, so the daemon finds the fake before any real agent CLI. */
  pathWith(path?: string): string;
  /** Every run so far, oldest first. */
  runs(): Promise<AgentCliRun[]>;
  /** Sets what the next runs do; `{}` brings back a quiet exit 0. */
  behave(behaviour: AgentCliBehaviour): Promise<void>;
}

/**
 * A stand-in for an agent CLI (`claude` by default), which is outside the machine in real life: an executable
 * shell script named `name` in `directory` that records its argv, cwd and stdin to runs.jsonl and exits 0 (or as
 * `behave` says).
 */
export async function makeFakeAgentCli(directory: string, name = "claude"): Promise<FakeAgentCli> {
  await mkdir(directory, { recursive: true });
  const scriptPath = join(directory, "fake-agent-cli.mjs");
  const bin = join(directory, name);
  const runsPath = join(directory, "runs.jsonl");
  await writeFile(scriptPath, SCRIPT);
  await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${scriptPath}" "$@"\n`);
  await chmod(bin, 0o755);
  return {
    binDir: directory,
    bin,
    pathWith: (path = process.env.PATH ?? "") =>
      [directory, path].filter((part) => part !== "").join(delimiter),
    async runs() {
      let text = "";
      try {
        text = await readFile(runsPath, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as AgentCliRun);
    },
    behave: (behaviour) => writeFile(join(directory, "behaviour.json"), JSON.stringify(behaviour)),
  };
}
