import {
  type LlmChannelPublic,
  LlmTestProgress,
  LlmTestResponse,
  type LlmTestStep,
  modelCallLimits,
} from "@ringback/protocol";
import {
  type LocalDaemon,
  MODEL_TEST_VERDICT_GRACE_MS,
  modelTestWaitMs,
} from "../../runtime/doctor/local-daemon.js";
import { StartError } from "../../runtime/start-error.js";
import { daemonRefusal } from "./daemon-answer.js";

/** How often the command says it is still waiting. */
const PROGRESS_INTERVAL_MS = 5_000;
/** How often the command asks the daemon how far the test got. */
const STEP_POLL_MS = 1_000;

/** A step as the waiting person reads it; null for none to say (the verdict follows `done`). */
function stepLine(step: LlmTestStep, elapsedMs: number, model: string): string | null {
  const seconds = (elapsedMs / 1000).toFixed(1);
  switch (step) {
    case "waiting-for-slot":
      return `waiting for a brief in progress on ${model} to finish first`;
    case "sent":
      return `sent to ${model} after ${seconds} s: it is reading the test report`;
    case "connected":
      return `${model}'s server answered after ${seconds} s; waiting for its first token`;
    case "first-token":
      return `first token after ${seconds} s: ${model} is writing the brief`;
    case "done":
      return null;
  }
}

/**
 * Says on stderr, while the daemon runs the test, each step it reaches (asked of the daemon every second: its verdict
 * is proven as a whole, so it is not streamed) and, every few seconds, how long it has been going of how long it may.
 */
function reportProgress(daemon: LocalDaemon, channel: LlmChannelPublic): () => void {
  const limitSeconds = modelCallLimits(channel).timeoutMs / 1000;
  const startedAt = Date.now();
  const isTerminal = process.stderr.isTTY === true;
  const say = (line: string) => process.stderr.write(isTerminal ? `\r\u001b[K${line}\n` : `${line}\n`);
  process.stderr.write(
    `testing ${channel.model} at ${channel.baseUrl}: the same call as a brief, within its overall limit of ${limitSeconds} s\n`,
  );
  let lastStep: LlmTestStep | null = null;
  let isAsking = false;
  const steps = setInterval(() => {
    if (isAsking) return;
    isAsking = true;
    void daemon
      .ask("GET", "/local/llm-test-progress", undefined, STEP_POLL_MS)
      .then((answer) => {
        const progress = LlmTestProgress.safeParse(answer?.body);
        // A daemon older than the route answers 404: the elapsed time alone is said, as before.
        if (!progress.success || progress.data.step === null || progress.data.step === lastStep) return;
        lastStep = progress.data.step;
        const line = stepLine(progress.data.step, progress.data.elapsedMs, channel.model);
        if (line) say(line);
      })
      .finally(() => {
        isAsking = false;
      });
  }, STEP_POLL_MS);
  steps.unref();
  const timer = setInterval(() => {
    const elapsed = Math.round((Date.now() - startedAt) / 1000);
    const line = `still waiting for ${channel.model}: ${elapsed} s of at most ${limitSeconds} s`;
    process.stderr.write(isTerminal ? `\r${line}` : `${line}\n`);
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(steps);
    clearInterval(timer);
    if (isTerminal) process.stderr.write("\r\u001b[K");
  };
}

/** The lines of a test that worked: the speeds, and how the typical and the long report fit the limit. */
function successLines(result: Extract<LlmTestResponse, { ok: true }>): string[] {
  const lines = [`${result.model} wrote a test brief in ${(result.latencyMs / 1000).toFixed(1)} s`];
  const timing = result.timing;
  if (!timing) return lines;
  const rate = (value: number | null) => (value === null ? "?" : value.toFixed(1));
  return [
    ...lines,
    `reads ${rate(timing.promptTokensPerSecond)} prompt tokens/s, writes ${rate(timing.outputTokensPerSecond)} tokens/s`,
    ...timing.estimates.map(
      (estimate) =>
        `${estimate.report} report (~${estimate.lines} lines, ${estimate.promptTokens} prompt + up to ${estimate.outputTokens} output tokens): ${estimate.ms === null ? "unknown" : `about ${Math.round(estimate.ms / 1000)} s`} of ${timing.timeoutMs / 1000} s${estimate.fitsTimeout === false ? " — will not fit" : ""}`,
    ),
    timing.advice ?? "both fit the limits",
  ];
}

/**
 * `ringback model test`: the daemon's test of the saved model (`POST /llm/test`), waited for as long as the daemon's
 * own limit for the call, with progress on stderr and the daemon's verdict on stdout. Exits 1 when the model does
 * not write a brief or a report will not fit.
 */
export async function testModel(daemon: LocalDaemon, channel: LlmChannelPublic): Promise<void> {
  const waitMs = modelTestWaitMs(channel);
  const stopProgress = reportProgress(daemon, channel);
  const answer = await daemon.ask("POST", "/llm/test", {}, waitMs).finally(stopProgress);
  if (!answer)
    throw new StartError(
      `the daemon gave no verdict within ${waitMs / 1000} s (the model's overall limit and ${MODEL_TEST_VERDICT_GRACE_MS / 1000} s more): it may be waiting for a brief in progress on the same model, or have stopped. Its log (the output of ringback run) says what the model did; run the test again once it is idle`,
    );
  if (answer.status === 429)
    throw new StartError(
      "not tested now: the daemon takes a few model tests a minute; try again in a minute",
    );
  const result = LlmTestResponse.safeParse(answer.body);
  if (!result.success) throw new StartError(`the daemon did not test the model: ${daemonRefusal(answer)}`);
  if (!result.data.ok) {
    process.stdout.write(`${channel.model} does not write a brief: ${result.data.error.message}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${successLines(result.data).join("\n")}\n`);
  if (result.data.timing?.advice) process.exitCode = 1;
}
