import { runTurnStartHook } from "./activity/run-turn-start-hook.js";
import type { AgentAdapter } from "./agent/agent-adapter.js";
import { parseHookInput } from "./agent/hook-input.js";
import { claudeCodeAdapter } from "./agent/payload-claude-code.js";
import { codexAdapter } from "./agent/payload-codex.js";
import { readStdin } from "./agent/read-stdin.js";
import type { AgentKind } from "./agent-kind.js";
import { locateDaemon } from "./daemon-call/daemon-location.js";
import { describeMissingKey, describeOutcome } from "./daemon-call/describe-outcome.js";
import { postReport } from "./daemon-call/post-report.js";
import { HOOK_TIMEOUT_MS } from "./daemon-call/protocol-constants.js";
import { createDebugLog, isDebugRequested } from "./debug-log.js";
import { PERMISSION_HOOK_WAIT_MS, runPermissionHook } from "./permission/run-permission-hook.js";
import { buildReport } from "./report/build-report.js";
import { reportBody } from "./report/fit-body-limit.js";
import { stopPayloadFrom } from "./report/stop-payload.js";

const ADAPTERS: Record<AgentKind, AgentAdapter> = { "claude-code": claudeCodeAdapter, codex: codexAdapter };

export interface RunHookOptions {
  /** Print the report on stdout instead of posting it (for people, never for agents). */
  dryRun?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Where the Stop payload comes from (default: `process.stdin`, destroyed once read). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** The whole budget of a Stop, from reading stdin to the daemon's answer (and a permission request's for stdin). */
  timeoutMs?: number;
  /** How long a permission request waits for the daemon's answer (default PERMISSION_WAIT_MS + 15 s). */
  permissionWaitMs?: number;
  /** Called before a permission request's long wait, with its length (the CLI pushes its watchdog back). */
  onPermissionWait?: (waitMs: number) => void;
}

/**
 * A signal that aborts once `timeoutMs` have passed. Not `AbortSignal.timeout`, whose setting up (and first
 * listener) cost every agent turn about a millisecond more here.
 */
function budgetSignal(timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), timeoutMs).unref();
  return controller.signal;
}

/**
 * `ringback-hook <claude-code|codex>`: reads the agent's payload from stdin. A Stop is posted as a report to the
 * daemon; a PermissionRequest is posted as an ask, and a person's decision is printed for the agent; a
 * UserPromptSubmit tells the daemon the agent started a turn. Never throws
 * and writes nothing else to stdout (Codex marks a hook that prints text as failed), except with `dryRun`.
 * Reasons go to stderr only with `RINGBACK_HOOK_DEBUG=1` (always with `dryRun`).
 */
export async function runHook(kind: AgentKind, options: RunHookOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const timeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_MS;
  const log = createDebugLog(options.dryRun === true || isDebugRequested(env), options.stderr);
  const budget = budgetSignal(timeoutMs);
  const deadline = Date.now() + timeoutMs;
  try {
    const input = await readStdin(stdin, budget);
    if (input === undefined)
      return log(
        `not reported: stdin gave no whole payload within the hook's ${timeoutMs / 1000} s budget (an agent writes one and closes stdin)`,
      );
    const hookInput = parseHookInput(input);
    if (!hookInput.ok) return log(`not reported: ${hookInput.reason}`);
    if (hookInput.event === "PermissionRequest")
      return await runPermissionHook(hookInput.fields, {
        kind,
        adapter: ADAPTERS[kind],
        env,
        log,
        stdout: options.stdout ?? process.stdout,
        dryRun: options.dryRun === true,
        deadline,
        waitMs: options.permissionWaitMs ?? PERMISSION_HOOK_WAIT_MS,
        ...(options.onPermissionWait ? { onWait: options.onPermissionWait } : {}),
      });
    if (hookInput.event === "UserPromptSubmit")
      return await runTurnStartHook(hookInput.fields, {
        kind,
        env,
        log,
        stdout: options.stdout ?? process.stdout,
        dryRun: options.dryRun === true,
        budget,
        budgetMs: timeoutMs,
      });
    const parsed = stopPayloadFrom(hookInput.fields);
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
    if (!daemon.key) return log(describeMissingKey(daemon));
    const outcome = await postReport({ port: daemon.port, key: daemon.key }, body, budget);
    log(describeOutcome(outcome, daemon, timeoutMs));
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (stdin === process.stdin) process.stdin.destroy();
  }
}
