import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runToEnd } from "@ringback/test-kit";

/** The real hook bundle, as `ringback-hook install` registers it. */
const HOOK_BIN = fileURLToPath(new URL("../../../hook/dist/ringback-hook.mjs", import.meta.url));

/** Runs `ringback-hook <kind>` with a Stop payload on stdin, as the agent does, and waits for it. */
export async function runHook(
  kind: "claude-code" | "codex",
  home: string,
  payload: object,
): Promise<number | null> {
  if (!existsSync(HOOK_BIN))
    throw new Error(`${HOOK_BIN} is missing: run pnpm --filter @ringback/hook build`);
  const result = await runToEnd({
    args: [HOOK_BIN, kind],
    env: { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home },
    input: `${JSON.stringify(payload)}\n`,
  });
  return result.code;
}
