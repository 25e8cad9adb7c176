import { type ChildProcess, spawn } from "node:child_process";
import { basename } from "node:path";
import { REPLY_STDERR_TAIL_CHARS } from "@ringback/protocol";
import type { AgentCommand } from "./agent-command.js";

/** After SIGTERM, the agent gets this long to exit before SIGKILL. */
const AGENT_KILL_GRACE_MS = 5000;
/** After the agent exits, its stderr gets this long to drain (a child it left behind may hold the pipe). */
const STDERR_DRAIN_MS = 500;

/**
 * How a run ended. A failure's `reason` goes to the device sealed and may quote the agent's stderr; its `summary`
 * says what happened without any of the agent's words, for the daemon's log.
 */
export type AgentRunResult = { isDelivered: true } | { isDelivered: false; reason: string; summary?: string };

export interface AgentRunOptions extends AgentCommand {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  killGraceMs?: number;
  /** Aborting stops the agent (daemon stopping); the result is then a failure. */
  signal?: AbortSignal;
}

/**
 * Runs a resumed agent to its end: stdout is dropped, the last REPLY_STDERR_TAIL_CHARS of stderr are kept as
 * the failure reason, a non-zero exit fails, and a run past `timeoutMs` is stopped (SIGTERM, then SIGKILL)
 * and fails. The agent runs in its own process group so that stopping it stops what it started.
 */
export function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const name = basename(options.command);
  return new Promise((resolve) => {
    let stderrTail = "";
    let stopReason: string | undefined;
    let isSettled = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const settle = (result: AgentRunResult) => {
      if (isSettled) return;
      isSettled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        stdio: ["ignore", "ignore", "pipe"],
        detached: process.platform !== "win32",
      });
    } catch (error) {
      const reason = `could not start ${name}: ${describe(error)}`;
      settle({ isDelivered: false, reason, summary: reason });
      return;
    }
    const stop = (reason: string) => {
      if (stopReason !== undefined) return;
      stopReason = reason;
      signalAgent(child, "SIGTERM");
      timers.push(
        setTimeout(() => signalAgent(child, "SIGKILL"), options.killGraceMs ?? AGENT_KILL_GRACE_MS),
      );
    };
    const onAbort = () => stop(`${name} was stopped: the daemon is stopping`);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-REPLY_STDERR_TAIL_CHARS);
    });
    child.once("error", (error) => {
      const reason = `could not start ${name}: ${describe(error)}`;
      settle({ isDelivered: false, reason, summary: reason });
    });
    child.once("exit", (code, signal) => {
      const finish = () => settle(outcome(name, { code, signal, stopReason, stderrTail: stderrTail.trim() }));
      if (child.stderr?.readableEnded) finish();
      else {
        child.stderr?.once("end", finish);
        timers.push(setTimeout(finish, STDERR_DRAIN_MS));
      }
    });
    timers.push(
      setTimeout(() => stop(`stopped after ${describeDuration(options.timeoutMs)}`), options.timeoutMs),
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function outcome(
  name: string,
  exit: { code: number | null; signal: NodeJS.Signals | null; stopReason?: string; stderrTail: string },
): AgentRunResult {
  if (exit.stopReason === undefined && exit.code === 0) return { isDelivered: true };
  const how =
    exit.stopReason ??
    (exit.code !== null ? `${name} exited with code ${exit.code}` : `${name} was killed by ${exit.signal}`);
  return { isDelivered: false, reason: exit.stderrTail ? `${how}: ${exit.stderrTail}` : how, summary: how };
}

/** Signals the agent's process group (falls back to the process alone where groups do not exist). */
function signalAgent(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

function describeDuration(ms: number): string {
  const minutes = ms / 60_000;
  return Number.isInteger(minutes) && minutes >= 1 ? `${minutes} minutes` : `${ms / 1000} seconds`;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return "not found (is it on PATH? RINGBACK_CLAUDE_BIN / RINGBACK_CODEX_BIN name it)";
  return code ?? (error instanceof Error ? error.message : String(error));
}
