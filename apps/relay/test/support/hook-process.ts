import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runToEnd } from "@ringback/test-kit";
import { daemonEnv } from "./daemon-process.js";

/** The real hook bundle of apps/hook, as `ringback-hook install` registers it with the agent. */
const HOOK_BIN = fileURLToPath(new URL("../../../hook/dist/ringback-hook.mjs", import.meta.url));

/** Claude Code's Stop payload for one finished turn. */
export interface StopPayload {
  readonly session_id: string;
  readonly prompt_id: string;
  readonly cwd: string;
  readonly transcript_path: string;
  readonly last_assistant_message: string;
}

/**
 * An agent turn ends: `ringback-hook claude-code` gets the Stop payload on stdin and hands the report to the
 * daemon of `home` (found through daemon.json's localPort). Resolves with the hook's exit code.
 */
export async function runClaudeStopHook(home: string, payload: StopPayload): Promise<number | null> {
  if (!existsSync(HOOK_BIN))
    throw new Error(`${HOOK_BIN} is missing: run "pnpm --filter @ringback/hook build" first.`);
  const result = await runToEnd({
    args: [HOOK_BIN, "claude-code"],
    env: daemonEnv(home),
    input: `${JSON.stringify({ ...payload, hook_event_name: "Stop", stop_hook_active: false })}\n`,
  });
  return result.code;
}
