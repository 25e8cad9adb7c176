// Rings you once: feeds the real hook a Claude Code Stop payload, as Claude Code itself would.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
if (process.argv[2] === "--help" || process.argv[2] === "-h") {
  process.stdout.write(`Usage: pnpm ring [words the agent said]

Rings you once: feeds the real hook (apps/hook/dist/ringback-hook.mjs) a Claude Code Stop payload, as Claude Code
itself would, and says whether the daemon took the report. Exit code 0 when it did.
The hook finds the daemon as the installed hooks do: localPort in RINGBACK_HOME/daemon.json (default
~/.ringback/daemon.json; 8790 when unset), which \`ringback run --port\` and \`pnpm start --daemon-port\` save.
`);
  process.exit(0);
}
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
const hook = resolve(root, "apps/hook/dist/ringback-hook.mjs");
if (!existsSync(hook)) {
  process.stderr.write(
    "ring: the hook is not built: run `pnpm --filter @ringback/hook build` (or `pnpm start`, which builds it)\n",
  );
  process.exit(1);
}
const result = spawnSync(process.execPath, [hook, "claude-code"], {
  input: JSON.stringify(payload),
  env: { ...process.env, RINGBACK_HOOK_DEBUG: "1" },
  encoding: "utf8",
});
// The hook always exits 0 (an agent must never be disturbed); its debug line says whether the daemon took the report,
// and if not, why and what to do.
process.stderr.write(result.stderr);
process.exit(result.status === 0 && /^ringback-hook: sent: /m.test(result.stderr) ? 0 : 1);
