import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentKind } from "./agent-kind.js";
import { buildReport } from "./build-report.js";
import { streamChannel, withFallback } from "./byte-channel.js";
import { locateDaemon } from "./daemon-location.js";
import { createDebugLog, isDebugRequested } from "./debug-log.js";
import { reportBody } from "./fit-body-limit.js";
import { libuvTransport } from "./libuv-transport.js";
import { netTransport, processStdin } from "./net-transport.js";
import { claudeCodeAdapter } from "./payload-claude-code.js";
import { codexAdapter } from "./payload-codex.js";
import { postReport } from "./post-report.js";
import { HOOK_TIMEOUT_MS } from "./protocol-constants.js";
import { readStdin } from "./read-stdin.js";
import { parseStopPayload } from "./stop-payload.js";

const ADAPTERS: Record<AgentKind, AgentAdapter> = { "claude-code": claudeCodeAdapter, codex: codexAdapter };

export interface RunHookOptions {
  /** Print the report on stdout instead of posting it (for people, never for agents). */
  dryRun?: boolean;
  env?: NodeJS.ProcessEnv;
  /**
   * Where the Stop payload comes from. Without it the hook reads the process's own stdin, through libuv's handle on
   * descriptor 0 where it can: pass `process.stdin` when something in the process already reads from it.
   */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** The whole budget, from reading stdin to the daemon's answer. */
  timeoutMs?: number;
}

/**
 * `ringback-hook <claude-code|codex>`: reads the Stop payload from stdin and posts the report to the
 * daemon. Never throws and never writes to stdout (Codex marks a hook that prints text as failed),
 * except with `dryRun`. Reasons go to stderr only with `RINGBACK_HOOK_DEBUG=1` (always with `dryRun`).
 */
export async function runHook(kind: AgentKind, options: RunHookOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const fastTransport = libuvTransport(env);
  const transport = fastTransport ? withFallback(fastTransport, netTransport) : netTransport;
  const stdin = options.stdin ? streamChannel(options.stdin, false) : (transport.stdin() ?? processStdin());
  const timeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_MS;
  const log = createDebugLog(options.dryRun === true || isDebugRequested(env), options.stderr);
  const budget = AbortSignal.timeout(timeoutMs);
  const deadline = Date.now() + timeoutMs;
  try {
    const input = await readStdin(stdin, budget);
    if (input === undefined) return log("no Stop payload on stdin within the budget");
    const parsed = parseStopPayload(input);
    if (!parsed.ok) return log(`not reported: ${parsed.reason}`);

    const built = await buildReport(ADAPTERS[kind], parsed.payload, {
      env,
      cwd: process.cwd(),
      now: new Date(),
      deadline,
    });
    if ("notReported" in built) return log(`not reported: ${built.notReported}`);
    const body = reportBody(built.report);
    if (options.dryRun) {
      (options.stdout ?? process.stdout).write(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
      return;
    }

    const daemon = locateDaemon(env);
    if (!daemon.key) return log(`not sent: no local-api.key in ${daemon.dataDir} (the daemon has never run)`);
    const outcome = await postReport(transport, { port: daemon.port, key: daemon.key }, body, budget);
    const over = `over ${transport.name}`;
    if ("error" in outcome) log(`not sent to 127.0.0.1:${daemon.port} ${over}: ${outcome.error}`);
    else log(`daemon on 127.0.0.1:${daemon.port} answered ${outcome.status} ${over}`);
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    stdin.close();
  }
}
