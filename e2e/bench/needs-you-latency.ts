/**
 * "Needs you" calls (issue #26): the time from the tap on Allow to the waiting agent going on, on loopback. The real
 * relay (open signup, no web app), the real daemon logged in to it (`ringback login`, `ringback run`, then
 * `ringback away on`) and the real hook (`ringback-hook claude-code`) with Claude Code's captured PermissionRequest
 * payload on stdin, each its own process; the device is the stand-in built from @ringback/client that the agent
 * CLI tests use (fakes/agent-clis/test/support/test-device.ts). Each round starts the hook, waits (untimed) until
 * the device has opened the call, then times from just before the tap (the call status `answered`, then the sealed
 * decision as a reply, as the web app's `CallCenter.decide` sends them) to the hook's exit, and checks it printed the
 * allow. Beside it, in the same run, the same tap against a bare loopback HTTP server answering a waiting child
 * (needs-you/loopback-floor.ts). Printed, not asserted (also its section of BENCHMARKS.md); a round that fails is
 * printed as a failure and the process exits 1.
 *
 *   pnpm --filter @ringback/e2e exec node bench/needs-you-latency.ts   (also part of the package's bench, first)
 *
 * RINGBACK_BENCH_NEEDS_YOU_ROUNDS sets the timed rounds (default 40; two warm-up rounds come before them).
 */
import { mkdir } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { type OpenedAsk, TestDevice } from "../../fakes/agent-clis/test/support/test-device.ts";
import { BenchReport } from "../../scripts/bench-report.mjs";
import { runRingback, startDaemon } from "../harness/daemon-process.ts";
import { genuinePermissionPayload } from "../harness/hook-process.ts";
import { HOOK_BIN, requireBuilt } from "../harness/paths.ts";
import { startRelay } from "../harness/relay-process.ts";
import { startLoopbackFloor } from "./needs-you/loopback-floor.ts";
import { type ChildExit, startTimedChild } from "./needs-you/timed-child.ts";
import { percentile } from "./percentile.ts";

const ROUNDS = Number(process.env.RINGBACK_BENCH_NEEDS_YOU_ROUNDS ?? 40);
const WARM_UP_ROUNDS = 2;
/** The goal: the agent goes on within 1 s of the tap. */
const GOAL_MS = 1000;
/** After the tap, how long a round may take before it is given up (the hook itself would wait 5 min 15 s). */
const ROUND_LIMIT_MS = 15_000;
/** Rounds that may fail before the bench stops: a broken path would otherwise cost a limit per round. */
const FAILURES_TO_STOP = 3;
/** Checks (20 ms apart) a call may take to reach the device: 30 s, far beyond a working round. */
const CALL_CHECKS = 1_500;
/** What the hook prints for Claude Code on an allow (apps/hook agent-permission-answer.ts). */
const ALLOW_ANSWER = {
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
};

interface Samples {
  /** Tap -> the hook's exit, with the allow printed (ms). */
  hookExit: number[];
  /** Tap -> the relay took the decision: the tap's own two POSTs and the sealing between them (ms). */
  decisionSent: number[];
  /** The same two POSTs to a bare loopback server -> its waiting child's exit (ms). */
  floor: number[];
}

const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(" ");

/** What a round's child printed, in one line for a failure message. */
function described(exit: ChildExit): string {
  return `exit ${exit.code ?? exit.signal}, stdout ${JSON.stringify(exit.stdout)}, stderr ${JSON.stringify(exit.stderr.trim())}`;
}

function printedAllow(exit: ChildExit): boolean {
  try {
    return exit.code === 0 && isDeepStrictEqual(JSON.parse(exit.stdout), ALLOW_ANSWER);
  } catch {
    return false;
  }
}

function withLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} took over ${ROUND_LIMIT_MS / 1000} s`)),
      ROUND_LIMIT_MS,
    );
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * The tap on Allow, as the app's `CallCenter.decide` sends it: answers the call, then sends the sealed decision, each
 * once the relay took the one before; resolves when the relay took the decision (`performance.now()` ms).
 */
async function tapAllow(device: TestDevice, opened: OpenedAsk): Promise<number> {
  await device.answer(opened.event.eventId);
  await device.decide(opened, "allow");
  return performance.now();
}

/** Prints the figures (and writes their section of BENCHMARKS.md); false when a round failed. */
export async function runNeedsYouBench(): Promise<boolean> {
  const hookBin = requireBuilt(HOOK_BIN, "@ringback/hook");
  const loadBefore = loadavg();

  await using directory = await makeTemporaryDirectory("ringback-needs-you-bench-");
  const home = join(directory.path, "home");
  const project = join(directory.path, "shop-api");
  await mkdir(project);
  await using relay = await startRelay({ dataDir: join(directory.path, "relay"), webRoot: null });
  await runRingback(home, ["login", "--server", relay.url, "--name", "bench laptop"]);
  await using daemon = await startDaemon({ home });
  await runRingback(home, ["away", "on"]);
  await using device = await TestDevice.join(await daemon.pair(), {
    deviceName: "bench phone",
    checks: CALL_CHECKS,
  });
  await using floor = await startLoopbackFloor();
  const hookEnv = { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home, RINGBACK_HOOK_DEBUG: "1" };

  const samples: Samples = { hookExit: [], decisionSent: [], floor: [] };
  const failures: string[] = [];
  for (let index = 0; index < WARM_UP_ROUNDS + ROUNDS && failures.length < FAILURES_TO_STOP; index += 1) {
    const command = `touch allowed-${index}.txt`;
    const payload = {
      ...genuinePermissionPayload(command, {
        cwd: project,
        transcriptPath: join(directory.path, "transcript.jsonl"),
      }),
      permission_suggestions: [{ type: "addDirectories", directories: [project], destination: "session" }],
    };
    const hook = startTimedChild([hookBin, "claude-code"], hookEnv, {
      input: `${JSON.stringify(payload)}\n`,
      cwd: project,
    });
    try {
      const early = hook.exited.then((exit) => {
        throw new Error(`the hook exited before the call reached the device: ${described(exit)}`);
      });
      // Handled here too: the hook also exits after a round that went well, or after a kill.
      early.catch(() => undefined);
      const opened = await Promise.race([device.waitForAsk(command), early]);
      const tapAt = performance.now();
      const decisionSentAt = await withLimit(tapAllow(device, opened), "the tap");
      const exit = await withLimit(hook.exited, "the hook's exit after the tap");
      if (!printedAllow(exit)) throw new Error(`the hook did not print the allow: ${described(exit)}`);
      const floorRound = await withLimit(floor.round(JSON.stringify(ALLOW_ANSWER)), "the floor's round");
      if (!isDeepStrictEqual(JSON.parse(floorRound.exit.stdout), ALLOW_ANSWER))
        throw new Error(`the floor's child did not print the allow: ${described(floorRound.exit)}`);
      if (index < WARM_UP_ROUNDS) continue;
      samples.hookExit.push(exit.exitAt - tapAt);
      samples.decisionSent.push(decisionSentAt - tapAt);
      samples.floor.push(floorRound.exit.exitAt - floorRound.tapAt);
    } catch (error) {
      hook.kill();
      const failure = `round ${index + 1}: ${(error as Error).message}`;
      failures.push(failure);
      console.error(`\n!!! NEEDS-YOU BENCH ROUND FAILED !!! ${failure}\n`);
    }
  }
  const loadAfter = loadavg();

  const report = new BenchReport(
    "@ringback/e2e needs-you",
    '"Needs you" calls: from the tap on Allow to the agent going on (issue #26)',
  );
  report.line(
    `needs you: tap on Allow -> the waiting hook exits with the allow printed (${samples.hookExit.length} rounds ` +
      `after ${WARM_UP_ROUNDS} warm-ups): the real relay, daemon (away) and hook processes on 127.0.0.1, a device ` +
      "built from @ringback/client. The tap is the call status `answered`, then the sealed decision as a reply, " +
      "each once the relay took the one before, as the web app sends them.",
  );
  report.line();
  if (samples.hookExit.length > 0) {
    const row = (what: string, values: number[]) => [
      what,
      milliseconds(percentile(values, 0.5)),
      milliseconds(percentile(values, 0.99)),
      milliseconds(Math.max(...values)),
    ];
    report.table(
      ["what", "p50", "p99", "max"],
      [
        row("same 2 POSTs to a bare loopback server -> its waiting child exits (baseline)", samples.floor),
        row("tap -> the relay took the decision (both POSTs)", samples.decisionSent),
        row("tap -> the hook exits, allow printed", samples.hookExit),
      ],
    );
    report.line();
    const p50 = percentile(samples.hookExit, 0.5);
    const p99 = percentile(samples.hookExit, 0.99);
    const isMet = p50 <= GOAL_MS && p99 <= GOAL_MS && failures.length === 0;
    report.line(
      `hook exit p50 / baseline p50: ${(p50 / percentile(samples.floor, 0.5)).toFixed(1)}x; goal: p50 and p99 ` +
        `<= ${GOAL_MS} ms from the tap to the hook's exit: ${isMet ? "met" : "not met"}.`,
    );
  }
  for (const failure of failures) report.line(`FAILED ${failure}`);
  if (failures.length >= FAILURES_TO_STOP) report.line(`Stopped after ${failures.length} failed rounds.`);
  report.line();
  report.line(
    `load average (1/5/15 min) at start: ${loads(loadBefore)}, at end: ${loads(loadAfter)} ` +
      `(${availableParallelism()} cores).`,
  );
  await report.save();
  return failures.length === 0;
}

if (import.meta.main && !(await runNeedsYouBench())) process.exitCode = 1;
