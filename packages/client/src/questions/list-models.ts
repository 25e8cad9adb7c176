import type { QuestionChannel } from "../storage/local-settings.js";
import { ModelAnswerError, statusProblem } from "./model-problem.js";

/** `{baseUrl}/models`, whether or not baseUrl ends in `/`; a query string is kept. */
export function modelsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/models`;
  return url;
}

/**
 * Settings › Language model for questions: the model ids the address offers (`GET /models`, OpenAI's list shape),
 * sorted. The request goes from the device straight to the model's address; the key is sent only in the header.
 */
export async function listModels(
  channel: Pick<QuestionChannel, "baseUrl" | "apiKey">,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<string[]> {
  let response: Response;
  try {
    response = await fetchImpl(modelsUrl(channel.baseUrl), {
      headers: channel.apiKey ? { Authorization: `Bearer ${channel.apiKey}` } : {},
    });
  } catch (cause) {
    throw new ModelAnswerError({ kind: "unreachable", address: channel.baseUrl }, { cause });
  }
  if (!response.ok) throw new ModelAnswerError(await statusProblem(response, channel.apiKey));
  const list = (await response.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
  if (!Array.isArray(list?.data)) throw new ModelAnswerError({ kind: "not-a-model-list" });
  const ids = list.data.map((entry) => entry.id).filter((id): id is string => typeof id === "string");
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}
