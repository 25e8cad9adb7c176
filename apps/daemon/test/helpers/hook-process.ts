import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ChildResult, runToEnd, StartedChild } from "@ringback/test-kit";

/** The real hook bundle, as `ringback-hook install` registers it. */
const HOOK_BIN = fileURLToPath(new URL("../../../hook/dist/ringback-hook.mjs", import.meta.url));

/** Runs `ringback-hook <kind>` with a Stop payload on stdin, as the agent does, and waits for it. */
export async function runHook(
  kind: "claude-code" | "codex",
  home: string,
  payload: object,
): Promise<number | null> {
  return (await runHookToEnd(kind, home, payload)).code;
}

/**
 * Runs `ringback-hook <kind>` with any payload on stdin (a Stop, a PermissionRequest), as the agent does, and
 * resolves with what it printed; `env` adds to its environment (`RINGBACK_HOOK_DEBUG`).
 */
export function runHookToEnd(
  kind: "claude-code" | "codex",
  home: string,
  payload: object,
  env: NodeJS.ProcessEnv = {},
): Promise<ChildResult> {
  return runToEnd(hookOptions(kind, home, payload, env));
}

/** Starts `ringback-hook <kind>` as `runHookToEnd` does, for a test that stops it as the agent does (a kill). */
export function startHook(kind: "claude-code" | "codex", home: string, payload: object): StartedChild {
  return new StartedChild(hookOptions(kind, home, payload, {}));
}

function hookOptions(kind: "claude-code" | "codex", home: string, payload: object, env: NodeJS.ProcessEnv) {
  if (!existsSync(HOOK_BIN))
    throw new Error(`${HOOK_BIN} is missing: run pnpm --filter @ringback/hook build`);
  return {
    args: [HOOK_BIN, kind],
    env: { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home, ...env },
    input: `${JSON.stringify(payload)}\n`,
  };
}
