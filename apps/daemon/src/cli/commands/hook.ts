import { ringbackHookCli } from "@ringback/hook";

export const summary = "the Stop hook itself: ringback hook <claude-code|codex> (reads the payload on stdin)";
export const usage = `ringback hook <claude-code|codex> [--dry-run]

What the agents run when a turn ends. Prints nothing and exits 0 whatever happens; --dry-run prints the report.`;

export async function run(args: string[]): Promise<void> {
  // An agent must never be disturbed by its hook, so no failure leaves this command with another code.
  process.on("uncaughtException", () => process.exit(0));
  await ringbackHookCli(args).catch(() => 0);
  process.exitCode = 0;
}
