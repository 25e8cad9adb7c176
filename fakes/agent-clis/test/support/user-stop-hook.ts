import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexStopTrustHash } from "@ringback/hook";
import type { AgentHome } from "./agent-home.js";

const TIMEOUT_SECONDS = 10;

/** What the user's hook says when it sends the agent back to work (exit 2, reason on stderr). */
export const CONTINUE_REASON = "Run the linter before you stop.";

/**
 * A Stop hook of the user's own, there before Ringback's: it blocks the first stop (exit 2), so the agent
 * continues once and stops again with `stop_hook_active: true`, then lets every stop through. Written to
 * Claude's settings.json and to Codex's hooks.json with its trust record, as a user who reviewed it has them.
 */
export function addUsersBlockingOnceStopHook(home: AgentHome): void {
  const marker = join(home.home, "blocked-once");
  const command = `if [ -e '${marker}' ]; then exit 0; fi; : > '${marker}'; echo '${CONTINUE_REASON}' >&2; exit 2`;
  const handler = { type: "command", command, timeout: TIMEOUT_SECONDS };
  const settings = `${JSON.stringify({ hooks: { Stop: [{ hooks: [handler] }] } }, null, 2)}\n`;
  mkdirSync(join(home.home, ".claude"), { recursive: true });
  writeFileSync(join(home.home, ".claude", "settings.json"), settings);
  const hooksJson = join(home.codexHome, "hooks.json");
  writeFileSync(hooksJson, settings);
  appendFileSync(
    join(home.codexHome, "config.toml"),
    `\n[hooks.state."${hooksJson}:stop:0:0"]\ntrusted_hash = "${codexStopTrustHash({ type: "command", command, timeout: TIMEOUT_SECONDS })}"\n`,
  );
}
