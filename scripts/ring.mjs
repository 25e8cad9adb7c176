// Rings you once: feeds the real hook a Claude Code Stop payload, as Claude Code itself would.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
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
const sent = result.status === 0 && /^ringback-hook: sent: /m.test(result.stderr);
const window = gatheringSeconds();
if (sent && window > 0) {
  process.stderr.write(
    `ring: the call rings once the brief is written and the gathering window has passed (${window} s, so agents ` +
      "finishing together make one call; `ringback rules set --gather 0` rings at once)\n",
  );
}
process.exit(sent ? 0 : 1);

/** The daemon's gathering window as it reads it: daemon.json's callRules, else RINGBACK_GATHER_SECONDS, else 20. */
function gatheringSeconds() {
  const home = process.env.RINGBACK_HOME || resolve(homedir(), ".ringback");
  try {
    const saved = JSON.parse(readFileSync(resolve(home, "daemon.json"), "utf8"))?.callRules?.gatherSeconds;
    if (Number.isInteger(saved)) return saved;
  } catch {
    // No daemon.json yet, or one the daemon itself would refuse: the defaults below.
  }
  const fromEnv = Number.parseInt(process.env.RINGBACK_GATHER_SECONDS ?? "", 10);
  return Number.isInteger(fromEnv) && fromEnv >= 0 ? fromEnv : 20;
}
