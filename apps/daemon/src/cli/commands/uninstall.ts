import { ringbackHookCli } from "@ringback/hook";

export const summary = "remove every Ringback hook (and the user service), and nothing else";
export const usage = `ringback uninstall [--claude-home DIR] [--codex-home DIR] [--no-service]`;

export async function run(args: string[]): Promise<void> {
  process.exitCode = await ringbackHookCli(["uninstall", ...args]);
}
