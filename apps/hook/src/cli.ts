import { AGENT_KINDS, isAgentKind } from "./agent-kind.js";
import { isDebugRequested } from "./debug-log.js";
import { HOOK_TIMEOUT_MS } from "./protocol-constants.js";
import { runHook } from "./run-hook.js";
import { HOOK_VERSION } from "./version.js";

export const USAGE = `usage: ringback-hook <${AGENT_KINDS.join("|")}> [--dry-run]
       ringback-hook install [--claude-home DIR] [--codex-home DIR] [--daemon-bin PATH] [--no-service]
       ringback-hook uninstall [--claude-home DIR] [--codex-home DIR] [--no-service]
       ringback-hook --version | --help

  <${AGENT_KINDS.join("|")}>  what the agent runs when a turn ends: reads its Stop payload on stdin and posts
                       the report to the daemon; prints nothing and exits 0 whatever happens
  --dry-run            print the report instead of posting it
  install, uninstall   add or remove the Stop hook in Claude Code and Codex (and the daemon's user service)
Environment: RINGBACK_HOOK_DEBUG=1 says on stderr whether the report was sent, and if not, why and what to do;
RINGBACK_HOME is the daemon's data directory (default ~/.ringback).`;

/** Past the budget the process ends whatever it is waiting for: an agent must never wait on the hook. */
const EXIT_GRACE_MS = 500;

async function runHookCommand(argv: string[]): Promise<number> {
  const watchdog = setTimeout(() => process.exit(0), HOOK_TIMEOUT_MS + EXIT_GRACE_MS);
  watchdog.unref();
  // Read by hand, not with node:util's parseArgs, which every agent turn would load. Unknown options are ignored,
  // not fatal: a newer agent config must never break the agent.
  const kind = argv[commandIndexOf(argv)];
  if (isAgentKind(kind)) await runHook(kind, { dryRun: argv.includes("--dry-run") });
  return 0;
}

async function installerCommand(command: "install" | "uninstall", argv: string[]): Promise<number> {
  // Built-ins come from the runtime, not `import`: see post-report.ts.
  const { parseArgs } = process.getBuiltinModule("node:util");
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    options: {
      "claude-home": { type: "string" },
      "codex-home": { type: "string" },
      "daemon-bin": { type: "string" },
      "no-service": { type: "boolean" },
    },
  });
  const options = {
    ...(values["claude-home"] ? { claudeHome: values["claude-home"] } : {}),
    ...(values["codex-home"] ? { codexHome: values["codex-home"] } : {}),
    ...(values["daemon-bin"] ? { daemonBinPath: values["daemon-bin"] } : {}),
    service: values["no-service"] !== true,
  };
  // Loaded only here: the installer's modules (crypto, child processes) would slow every agent turn's hook.
  const { install, uninstall } = await import("./installer/install.js");
  const summary = command === "install" ? install(options) : uninstall(options);
  process.stdout.write(`${summary.lines.join("\n")}\n`);
  return 0;
}

/** The command is the first word that is not an option, so `--dry-run codex` works too. */
function commandIndexOf(argv: string[]): number {
  return argv.findIndex((argument) => !argument.startsWith("-"));
}

/** Whether these arguments run the installer (people) rather than the hook (agents). */
export function isInstallerRun(argv: string[]): boolean {
  const command = argv[commandIndexOf(argv)];
  return command === "install" || command === "uninstall";
}

/** Whether these arguments and environment make a hook run that writes nothing at all (the one agents make). */
export function isSilentHookRun(argv: string[], env: NodeJS.ProcessEnv): boolean {
  return isAgentKind(argv[commandIndexOf(argv)]) && !argv.includes("--dry-run") && !isDebugRequested(env);
}

/**
 * The `ringback-hook` command line. As a hook it exits 0 whatever happens and prints nothing on stdout;
 * `install`/`uninstall` are run by people and exit 1 (with the reason on stderr) when they fail.
 */
export async function ringbackHookCli(argv: string[]): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "-v") {
    process.stdout.write(`${HOOK_VERSION}\n`);
    return 0;
  }
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const commandIndex = commandIndexOf(argv);
  const command = argv[commandIndex];
  if (isAgentKind(command)) return runHookCommand(argv);
  if (command === "install" || command === "uninstall") {
    try {
      return await installerCommand(
        command,
        argv.filter((_, index) => index !== commandIndex),
      );
    } catch (error) {
      const isUsageError = (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true;
      process.stderr.write(
        `ringback-hook ${command}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      if (isUsageError) process.stderr.write(`${USAGE}\n`);
      return 1;
    }
  }
  // A wrong agent kind in an agent's config must not break the agent: say so on stderr, exit 0.
  const problem = command === undefined ? "no command given" : `unknown command ${JSON.stringify(command)}`;
  process.stderr.write(`ringback-hook: ${problem}\n${USAGE}\n`);
  return 0;
}
