import { isRingbackError } from "@ringback/protocol";
import { daemonVersion } from "./daemon-version.js";
import { StartError } from "./runtime/start-error.js";

interface CommandModule {
  summary: string;
  usage: string;
  run(args: string[]): Promise<void>;
}

/** Every command, loaded only when it runs. */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  run: () => import("./cli/commands/run.js"),
  install: () => import("./cli/commands/install.js"),
  uninstall: () => import("./cli/commands/uninstall.js"),
  hook: () => import("./cli/commands/hook.js"),
  "brief-eval": () => import("./cli/commands/brief-eval.js"),
  login: () => import("./cli/commands/login.js"),
  pair: () => import("./cli/commands/pair.js"),
  key: () => import("./cli/commands/key.js"),
  listen: () => import("./cli/commands/listen.js"),
  doctor: () => import("./cli/commands/doctor.js"),
  model: () => import("./cli/commands/model.js"),
  away: () => import("./cli/commands/away.js"),
  escalation: () => import("./cli/commands/escalation.js"),
  status: () => import("./cli/commands/status.js"),
  rules: () => import("./cli/commands/rules.js"),
};

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(await helpText());
    return;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`${daemonVersion()}\n`);
    return;
  }
  const load = COMMANDS[name];
  if (!load) throw new StartError(`unknown command "${name}" (try: ringback help)`);
  const command = await load();
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${command.usage}\n`);
    return;
  }
  await command.run(args);
}

async function helpText(): Promise<string> {
  const lines = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, load]) => `  ${name.padEnd(12)}${(await load()).summary}`),
  );
  return `Usage: ringback <command>   (ringback --version: this version)\n\nCommands:\n${lines.join("\n")}\n`;
}

/** The one place that turns a failure into a message and an exit code. */
main(process.argv.slice(2)).then(
  () => {
    // A command that failed softly (brief-eval) has set its own exit code already.
    process.exitCode ??= 0;
  },
  (error: unknown) => {
    const isExpected = error instanceof StartError || isRingbackError(error) || isUsageError(error);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ringback: ${isExpected ? message : `unexpected error: ${message}`}\n`);
    process.exitCode = 1;
  },
);

/** parseArgs rejects unknown or malformed options with ERR_PARSE_ARGS_* codes. */
function isUsageError(error: unknown): boolean {
  return String((error as { code?: unknown } | undefined)?.code ?? "").startsWith("ERR_PARSE_ARGS");
}
