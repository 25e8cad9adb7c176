import { parseArgs } from "node:util";
import {
  LlmSettingsResponse,
  LlmTestResponse,
  MODEL_CALL_LIMITS_DEFAULT_MS,
  modelCallLimits,
} from "@ringback/protocol";
import { LocalDaemon, MODEL_TEST_TIMEOUT_MS, readDataDir } from "../../runtime/doctor/local-daemon.js";
import { resolveDataDir } from "../../runtime/files/data-dir.js";
import { StartError } from "../../runtime/start-error.js";

export const summary = "show the language model for briefs, set its time limits, or test it";
export const usage = `ringback model [limits|test]

  ringback model                 the model, its address and its time limits (and whether they are the default)
  ringback model limits --timeout SECONDS --no-progress SECONDS
                                 the overall cap of one model call and the longest wait for the next token once
                                 the model has started answering; "default" goes back to the endpoint's default
                                 (a local model: ${MODEL_CALL_LIMITS_DEFAULT_MS.local.timeoutMs / 1000} s and ${MODEL_CALL_LIMITS_DEFAULT_MS.local.noProgressTimeoutMs / 1000} s; a hosted one: ${MODEL_CALL_LIMITS_DEFAULT_MS.hosted.timeoutMs / 1000} s and ${MODEL_CALL_LIMITS_DEFAULT_MS.hosted.noProgressTimeoutMs / 1000} s)
  ringback model test            the same structured call as a brief: the model's speeds, how long a typical and a
                                 long report take against the limit, and what to change
Talks to the running daemon (ringback run).`;

/** A limit as typed: seconds, or "default" (null: the endpoint's default). */
function limitMs(value: string | undefined, name: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "default") return null;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new StartError(`--${name} takes seconds or "default"`);
  return Math.round(seconds * 1000);
}

async function runningDaemon(): Promise<LocalDaemon> {
  const facts = await readDataDir(resolveDataDir(process.env), process.env);
  if (!facts.localKey) throw new StartError("the daemon has not run on this computer yet: ringback run");
  return new LocalDaemon(facts.port, facts.localKey);
}

async function savedChannel(daemon: LocalDaemon) {
  const answer = await daemon.ask("GET", "/llm/settings");
  if (!answer) throw new StartError("the daemon is not running: ringback run");
  const channel = LlmSettingsResponse.parse(answer.body).channel;
  if (!channel)
    throw new StartError(
      "no language model is set: the app's Settings › Your computer › Language model for briefs",
    );
  return channel;
}

function describe(channel: NonNullable<LlmSettingsResponse["channel"]>): string {
  const limits = modelCallLimits(channel);
  const origin = (value: number | undefined) =>
    value === undefined ? ` (the ${limits.endpoint} default)` : "";
  return [
    `${channel.model} at ${channel.baseUrl} (${limits.endpoint}), key ${channel.keyHint}, ${channel.structuredOutput}`,
    `overall limit per call: ${limits.timeoutMs / 1000} s${origin(channel.timeoutMs)}`,
    `no-progress limit: ${limits.noProgressTimeoutMs / 1000} s${origin(channel.noProgressTimeoutMs)}`,
  ].join("\n");
}

export async function run(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { timeout: { type: "string" }, "no-progress": { type: "string" } },
  });
  const daemon = await runningDaemon();
  const channel = await savedChannel(daemon);
  const [command] = positionals;
  if (command === undefined) {
    process.stdout.write(`${describe(channel)}\n`);
    return;
  }
  if (command === "limits") {
    const timeoutMs = limitMs(values.timeout, "timeout");
    const noProgressTimeoutMs = limitMs(values["no-progress"], "no-progress");
    if (timeoutMs === undefined && noProgressTimeoutMs === undefined)
      throw new StartError(`give --timeout or --no-progress\n${usage}`);
    const { keyHint: _hint, ...kept } = channel;
    const answer = await daemon.ask("PUT", "/llm/settings", {
      ...kept,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(noProgressTimeoutMs === undefined ? {} : { noProgressTimeoutMs }),
    });
    const saved = LlmSettingsResponse.safeParse(answer?.body);
    if (!saved.success || !saved.data.channel) {
      const message = (answer?.body as { error?: { message?: string } } | null)?.error?.message;
      throw new StartError(`the daemon did not save the limits: ${message ?? answer?.status ?? "no answer"}`);
    }
    process.stdout.write(`${describe(saved.data.channel)}\n`);
    return;
  }
  if (command === "test") {
    const answer = await daemon.ask("POST", "/llm/test", {}, MODEL_TEST_TIMEOUT_MS);
    const result = LlmTestResponse.parse(answer?.body);
    if (!result.ok) {
      process.stdout.write(`${channel.model} does not write a brief: ${result.error.message}\n`);
      process.exitCode = 1;
      return;
    }
    const timing = result.timing;
    const lines = [`${result.model} wrote a test brief in ${(result.latencyMs / 1000).toFixed(1)} s`];
    if (timing) {
      const rate = (value: number | null) => (value === null ? "?" : value.toFixed(1));
      lines.push(
        `reads ${rate(timing.promptTokensPerSecond)} prompt tokens/s, writes ${rate(timing.outputTokensPerSecond)} tokens/s`,
        ...timing.estimates.map(
          (estimate) =>
            `${estimate.report} report (~${estimate.lines} lines, ${estimate.promptTokens} prompt + up to ${estimate.outputTokens} output tokens): ${estimate.ms === null ? "unknown" : `about ${Math.round(estimate.ms / 1000)} s`} of ${timing.timeoutMs / 1000} s${estimate.fitsTimeout === false ? " — will not fit" : ""}`,
        ),
        timing.advice ?? "both fit the limits",
      );
    }
    process.stdout.write(`${lines.join("\n")}\n`);
    if (timing?.advice) process.exitCode = 1;
    return;
  }
  throw new StartError(`unknown: ringback model ${command}\n${usage}`);
}
