import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildOptions, type ChildResult, runToEnd } from "@ringback/test-kit";
import { type Payload, stdinFor } from "./fixtures.js";

/** The built bundle under test: `pnpm build` makes it, `pnpm test` runs after the build. */
export const HOOK_BUNDLE = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "dist",
  "ringback-hook.mjs",
);

export function assertBundleBuilt(): void {
  if (!existsSync(HOOK_BUNDLE))
    throw new Error(`${HOOK_BUNDLE} is missing: run \`pnpm --filter @ringback/hook build\``);
}

export type ProcessResult = ChildResult;

export interface RunOptions {
  args: string[];
  /** What the child reads on stdin, or a function that writes it (and ends it) as an agent would. */
  stdin?: ChildOptions["input"];
  /** The whole environment of the child: nothing is inherited, so no MULTICA_* or debug variable leaks in. */
  env: NodeJS.ProcessEnv;
  bundle?: string;
  cwd?: string;
  /** Options for that Node.js, before the bundle. */
  nodeOptions?: string[];
}

/** Runs the real bundle as a child process, the way an agent runs its Stop hook. */
export function runBundle(options: RunOptions): Promise<ProcessResult> {
  const args = [...(options.nodeOptions ?? []), options.bundle ?? HOOK_BUNDLE, ...options.args];
  return runProcess(process.execPath, args, options);
}

/** Runs the bundle as `agent` runs its hook (`ringback-hook <agent> ...flags`), `payload` on stdin as it writes it. */
export function runAgentHook(
  agent: "claude-code" | "codex",
  payload: Payload,
  env: NodeJS.ProcessEnv,
  ...flags: string[]
): Promise<ProcessResult> {
  return runBundle({ args: [agent, ...flags], stdin: stdinFor(agent, payload), env });
}

/** Runs a command through `/bin/sh -c`, as Claude Code runs a hook command. */
export function runShellCommand(command: string, options: Omit<RunOptions, "args">): Promise<ProcessResult> {
  return runProcess("/bin/sh", ["-c", command], options);
}

function runProcess(
  command: string,
  args: string[],
  options: Omit<RunOptions, "args">,
): Promise<ProcessResult> {
  return runToEnd({ command, args, env: options.env, cwd: options.cwd, input: options.stdin });
}

export const LOCAL_KEY = "rb-local-test-key-7f3a9c2e1b";

/** A `{data_dir}` as the daemon leaves it: daemon.json with the port, local-api.key with a newline. */
export async function writeRingbackHome(dataDir: string, port: number | undefined): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(
    join(dataDir, "daemon.json"),
    JSON.stringify(port === undefined ? {} : { localPort: port }),
  );
  await writeFile(join(dataDir, "local-api.key"), `${LOCAL_KEY}\n`, { mode: 0o600 });
}

/** A minimal environment for the hook: a home, the data dir, and PATH. */
export function hookEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: join(home, ".ringback"), ...extra };
}
