import { parseArgs } from "node:util";
import {
  LlmSettingsResponse,
  MODEL_CALL_LIMITS_DEFAULT_MS,
  MODEL_OUTPUT_TOKENS_MAX,
  MODEL_OUTPUT_TOKENS_MIN,
  StructuredOutput,
} from "@ringback/protocol";
import {
  type LocalDaemon,
  MODEL_TEST_VERDICT_GRACE_MS,
  runningDaemon,
} from "../../runtime/doctor/local-daemon.js";
import { StartError } from "../../runtime/start-error.js";
import { readApiKey, refuseKeyArgument } from "../model/api-key-input.js";
import { describeChannel } from "../model/model-description.js";
import { saveModel } from "../model/set-model.js";
import { testModel } from "../model/test-model.js";

export const summary = "show, set or test the language model for briefs, and set its limits and output cap";
export const usage = `ringback model [set|limits|test]

  ringback model                 the model, its address, its time limits and output cap (and whether they are the default)
  ringback model set --address URL --model NAME [--structured-output json_schema|json_object]
                                 sets the model; the API key is typed at a prompt that does not show it, or piped on
                                 stdin (never an argument); Enter or nothing piped keeps the saved key for that address
  ringback model limits [--timeout SECONDS] [--no-progress SECONDS] [--output-tokens TOKENS]
                                 the overall cap of one model call, the longest wait for the next token once the model
                                 has started answering, and the output cap (max_tokens, ${MODEL_OUTPUT_TOKENS_MIN} to ${MODEL_OUTPUT_TOKENS_MAX}); "default" goes
                                 back to the endpoint's default (a local model: ${MODEL_CALL_LIMITS_DEFAULT_MS.local.timeoutMs / 1000} s, ${MODEL_CALL_LIMITS_DEFAULT_MS.local.noProgressTimeoutMs / 1000} s and a cap sized
                                 to each report; a hosted one: ${MODEL_CALL_LIMITS_DEFAULT_MS.hosted.timeoutMs / 1000} s, ${MODEL_CALL_LIMITS_DEFAULT_MS.hosted.noProgressTimeoutMs / 1000} s and no cap)
  ringback model test            the same structured call as a brief: the model's speeds, how long a typical and a
                                 long report take against the limit, and what to change. Waits as long as the
                                 daemon's own limit for the call (and ${MODEL_TEST_VERDICT_GRACE_MS / 1000} s more), saying on stderr each step
                                 (the model's server answered, its first token) and how long so far
Talks to the running daemon (ringback run). The app sets the same: Settings › Your computer › Language model for briefs.`;

const SET_ONE =
  "ringback model set --address URL --model NAME (or the app's Settings › Your computer › Language model for briefs)";

/** A setting as typed: a positive number in `unit`, or "default" (null: the endpoint's default). */
function typedSetting(value: string | undefined, name: string, scale: number): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "default") return null;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new StartError(`--${name} takes ${scale === 1 ? "a number of tokens" : "seconds"} or "default"`);
  return Math.round(number * scale);
}

async function savedChannel(daemon: LocalDaemon) {
  const answer = await daemon.ask("GET", "/llm/settings");
  if (!answer) throw new StartError(`the daemon is not running on port ${daemon.port}: ringback run`);
  const channel = LlmSettingsResponse.parse(answer.body).channel;
  if (!channel) throw new StartError(`no language model is set: ${SET_ONE}`);
  return channel;
}

export async function run(args: string[]): Promise<void> {
  refuseKeyArgument(args);
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      timeout: { type: "string" },
      "no-progress": { type: "string" },
      "output-tokens": { type: "string" },
      address: { type: "string" },
      model: { type: "string" },
      "structured-output": { type: "string" },
    },
  });
  const [command] = positionals;
  if (command !== undefined && !["set", "limits", "test"].includes(command))
    throw new StartError(`unknown: ringback model ${command}\n${usage}`);
  const daemon = await runningDaemon(process.env);
  if (command === "set") {
    if (!values.address || !values.model) throw new StartError(`give --address and --model\n${usage}`);
    const structuredOutput = StructuredOutput.optional().safeParse(values["structured-output"]);
    if (!structuredOutput.success)
      throw new StartError("--structured-output takes json_schema or json_object");
    const apiKey = await readApiKey();
    const saved = await saveModel(daemon, {
      baseUrl: values.address,
      model: values.model,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(structuredOutput.data === undefined ? {} : { structuredOutput: structuredOutput.data }),
    });
    process.stdout.write(`${saved}\nTest it: ringback model test\n`);
    return;
  }
  const channel = await savedChannel(daemon);
  if (command === undefined) {
    process.stdout.write(`${describeChannel(channel)}\n`);
    return;
  }
  if (command === "limits") {
    const timeoutMs = typedSetting(values.timeout, "timeout", 1000);
    const noProgressTimeoutMs = typedSetting(values["no-progress"], "no-progress", 1000);
    const maxOutputTokens = typedSetting(values["output-tokens"], "output-tokens", 1);
    if (timeoutMs === undefined && noProgressTimeoutMs === undefined && maxOutputTokens === undefined)
      throw new StartError(`give --timeout, --no-progress or --output-tokens\n${usage}`);
    const {
      keyHint: _hint,
      timeoutMs: _timeout,
      noProgressTimeoutMs: _noProgress,
      maxOutputTokens: _cap,
      ...kept
    } = channel;
    const saved = await saveModel(daemon, {
      ...kept,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(noProgressTimeoutMs === undefined ? {} : { noProgressTimeoutMs }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    });
    process.stdout.write(`${saved}\n`);
    return;
  }
  await testModel(daemon, channel);
}
