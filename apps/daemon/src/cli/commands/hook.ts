import { ringbackHookCli } from "@ringback/hook";

export const summary =
  "the agents' hook itself: ringback hook <claude-code|codex> (reads a Stop or PermissionRequest payload on stdin)";
export const usage = `ringback hook <claude-code|codex> [--dry-run]

What the agents run when a turn ends (Stop) or when they ask permission (PermissionRequest). Exits 0 whatever
happens to the report (a mistyped agent kind exits 1 with the usage, which both agents log and pass over). For
a Stop it prints nothing; for a PermissionRequest it prints the phone's allow or deny in the agent's format, and
nothing (the agent's own dialog) when nobody decided. --dry-run prints what it would send.`;

export async function run(args: string[]): Promise<void> {
  // An agent must never be disturbed by its hook: no failure of a run leaves this command with another code than the
  // hook's own (0 for every agent run, 1 for a mistyped command).
  process.on("uncaughtException", () => process.exit(0));
  process.exitCode = await ringbackHookCli(args).catch(() => 0);
}
