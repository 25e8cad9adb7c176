import { runToEnd } from "@ringback/test-kit";
import { expectSuccess } from "./expect-success.js";
import { daemonMainPath, hookBundlePath } from "./installed-bins.js";

const INSTALLER_TIMEOUT_MS = 60_000;

/** `ringback-hook <command>` (the hook's own bin) or `ringback <command>` (the daemon's, same installer). */
export type InstallerBin = "ringback-hook" | "ringback";

/**
 * Runs the real installer for the temporary home (`HOME`, `CODEX_HOME`) as a user would, with
 * `--no-service`: the test runs the daemon itself and must not touch systemd or launchd.
 */
export async function runInstaller(
  command: "install" | "uninstall",
  env: NodeJS.ProcessEnv,
  cwd: string,
  bin: InstallerBin = "ringback-hook",
): Promise<string> {
  const entry = bin === "ringback-hook" ? hookBundlePath() : daemonMainPath();
  const result = await runToEnd({
    args: [entry, command, "--no-service"],
    cwd,
    env,
    timeoutMs: INSTALLER_TIMEOUT_MS,
    isGroupLeader: true,
  });
  return expectSuccess(`${bin} ${command}`, result).stdout;
}

/** `ringback <args>` (the daemon's CLI, e.g. `login`, `pair --json`, `away on`), which talks to the running daemon. */
export async function runRingback(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const result = await runToEnd({
    args: [daemonMainPath(), ...args],
    cwd,
    env,
    timeoutMs: INSTALLER_TIMEOUT_MS,
    isGroupLeader: true,
  });
  return expectSuccess(`ringback ${args.join(" ")}`, result).stdout;
}
