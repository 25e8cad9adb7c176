import { AGENT_KINDS, isAgentKind } from "./agent-kind.js";
import { HOOK_TIMEOUT_MS, PERMISSION_WAIT_MS } from "./daemon-call/protocol-constants.js";
import { isDebugRequested } from "./debug-log.js";
import { runHook } from "./run-hook.js";
import { HOOK_VERSION } from "./version.js";

export const USAGE = `usage: ringback-hook <${AGENT_KINDS.join("|")}> [--dry-run]
       ringback-hook install [--claude-home DIR] [--codex-home DIR] [--daemon-bin PATH] [--no-service]
       ringback-hook uninstall [--claude-home DIR] [--codex-home DIR] [--no-service]
       ringback-hook --version | --help

  <${AGENT_KINDS.join("|")}>  what the agent runs when a turn ends (Stop) or it asks permission (PermissionRequest):
                       reads the payload on stdin. A Stop is posted to the daemon as a report; prints nothing.
                       A PermissionRequest rings your phone when you are away and waits (${PERMISSION_WAIT_MS / 60_000} min) for
                       Allow or Deny, then prints the decision for the agent; with no decision it prints
                       nothing and the agent asks you as usual: nothing ever allows by default. Exits 0
                       whatever happens (a mistyped command exits 1 with this usage).
  --dry-run            print the report (or the permission request) instead of posting it
  install, uninstall   add or remove the Stop and PermissionRequest hooks in Claude Code and Codex (with
                       Codex's trust records), and the daemon's user service
Environment: RINGBACK_HOOK_DEBUG=1 says on stderr what became of the report or the permission request, and if
nothing, why and what to do; RINGBACK_HOME is the daemon's data directory (default ~/.ringback). The daemon's port
is localPort in its daemon.json (default 8790): \`ringback run --port\` saves it there.`;

/** The exit code of a mistyped command: a non-blocking error to Claude Code and Codex, where 2 would block. */
const USAGE_EXIT_CODE = 1;

/** Past the budget the process ends whatever it is waiting for: an agent must never wait on the hook. */
const EXIT_GRACE_MS = 500;

function armWatchdog(budgetMs: number): NodeJS.Timeout {
  const watchdog = setTimeout(() => process.exit(0), budgetMs + EXIT_GRACE_MS);
  watchdog.unref();
  return watchdog;
}

async function runHookCommand(argv: string[]): Promise<number> {
  let watchdog = armWatchdog(HOOK_TIMEOUT_MS);
  // A permission request waits minutes for a person: its wait gets a watchdog of its own.
  const onPermissionWait = (waitMs: number) => {
    clearTimeout(watchdog);
    watchdog = armWatchdog(waitMs);
  };
  // Read by hand, not with node:util's parseArgs, which every agent turn would load. Unknown options are ignored,
  // not fatal: a newer agent config must never break the agent.
  const kind = argv[commandIndexOf(argv)];
  if (isAgentKind(kind)) await runHook(kind, { dryRun: argv.includes("--dry-run"), onPermissionWait });
  return 0;
}

async function installerCommand(command: "install" | "uninstall", argv: string[]): Promise<number> {
  // Built-ins come from the runtime, not `import`: see daemon-call/post-report.ts.
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
 * `install`/`uninstall` are run by people and exit 1 (with the reason on stderr) when they fail, as does a
 * mistyped command.
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
  // A mistyped command fails with the usage, so the person who typed it sees it. Exit 1, never 2: both agents log
  // exit 1 as a non-blocking error and carry on, where exit 2 would block the agent's stop.
  const problem = command === undefined ? "no command given" : `unknown command ${JSON.stringify(command)}`;
  process.stderr.write(`ringback-hook: ${problem}\n${USAGE}\n`);
  return USAGE_EXIT_CODE;
}
