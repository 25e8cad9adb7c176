import { fileURLToPath } from "node:url";
import { ringbackHookCli } from "@ringback/hook";

export const summary =
  "install the Stop and permission hooks into Claude Code and Codex, and the daemon as a user service";
export const usage = `ringback install [--claude-home DIR] [--codex-home DIR] [--no-service]

Writes the Stop and PermissionRequest hooks into ~/.claude/settings.json and $CODEX_HOME/hooks.json (with Codex's
trust entries), keeping every other setting and replacing any older Ringback hook, so a turn rings once. Then installs the daemon as a
user service (systemd user unit or launchd agent), or prints what to run where neither exists.`;

export async function run(args: string[]): Promise<void> {
  const daemonBin = fileURLToPath(new URL("./main.js", import.meta.url));
  process.exitCode = await ringbackHookCli(["install", "--daemon-bin", daemonBin, ...args]);
}
