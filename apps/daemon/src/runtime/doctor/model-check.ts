import { LlmTestResponse } from "@ringback/protocol";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";
import { type LocalDaemon, modelTestWaitMs } from "./local-daemon.js";

const SET_MODEL = "the app: Settings › Your computer › Language model for briefs";

/** The brief's language model, tested by the daemon with the same structured call as a brief (`POST /llm/test`). */
export async function checkModel(daemon: LocalDaemon | null): Promise<DoctorCheck> {
  if (!daemon) return warn("model", "not checked: the daemon is not running", "ringback run");
  const settings = await daemon.ask("GET", "/llm/settings");
  const channel =
    (settings?.body as { channel?: { baseUrl: string; model: string; timeoutMs?: number } | null } | null)
      ?.channel ?? null;
  if (!channel)
    return warn("model", "no language model for briefs: calls read the agent's own words", SET_MODEL);
  const details = { baseUrl: channel.baseUrl, model: channel.model };
  const answer = await daemon.ask("POST", "/llm/test", {}, modelTestWaitMs(channel));
  const result = LlmTestResponse.safeParse(answer?.body);
  if (answer?.status === 429)
    return warn(
      "model",
      "not tested now: the daemon takes a few model tests a minute",
      "ringback doctor, in a minute",
      details,
    );
  if (!answer || !result.success)
    return fail(
      "model",
      `the daemon did not answer the model test (${answer?.status ?? "no answer"})`,
      "ringback run",
      details,
    );
  if (!result.data.ok)
    return fail(
      "model",
      `${channel.model} at ${channel.baseUrl} does not write a brief: ${result.data.error.message}`,
      SET_MODEL,
      details,
    );
  return ok(
    "model",
    `${result.data.model} at ${channel.baseUrl} wrote a test brief in ${result.data.latencyMs} ms`,
    {
      ...details,
      latencyMs: result.data.latencyMs,
    },
  );
}
