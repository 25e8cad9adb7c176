// Rings you once: feeds the real hook a Claude Code Stop payload, as Claude Code itself would.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const text =
  process.argv.slice(2).join(" ") ||
  "I fixed the flaky login test: the session cookie expired during slow CI runs. All 214 tests pass now. " +
    "Should I also raise the session lifetime in production from 1 hour to 8 hours?";
const payload = {
  session_id: randomUUID(),
  prompt_id: randomUUID(),
  transcript_path: "",
  cwd: root,
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: text,
};
const result = spawnSync(
  process.execPath,
  [resolve(root, "apps/hook/dist/ringback-hook.mjs"), "claude-code"],
  {
    input: JSON.stringify(payload),
    env: { ...process.env, RINGBACK_HOOK_DEBUG: "1" },
    encoding: "utf8",
  },
);
process.stderr.write(result.stderr);
process.exit(result.status ?? 1);
