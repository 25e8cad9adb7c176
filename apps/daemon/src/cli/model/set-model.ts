import { LlmSettingsResponse, type PutLlmSettingsRequest } from "@ringback/protocol";
import type { LocalDaemon } from "../../runtime/doctor/local-daemon.js";
import { StartError } from "../../runtime/start-error.js";
import { daemonRefusal } from "./daemon-answer.js";
import { describeChannel } from "./model-description.js";

/** Saves the model through the daemon (`PUT /llm/settings`, which checks the address) and says what is now set. */
export async function saveModel(daemon: LocalDaemon, request: PutLlmSettingsRequest): Promise<string> {
  const answer = await daemon.ask("PUT", "/llm/settings", request);
  const saved = LlmSettingsResponse.safeParse(answer?.body);
  if (!answer || !saved.success || !saved.data.channel)
    throw new StartError(`the daemon did not save the model: ${daemonRefusal(answer)}`);
  return describeChannel(saved.data.channel);
}
