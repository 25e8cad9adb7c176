import { LlmSettingsResponse, type PutLlmSettingsRequest } from "@ringback/protocol";

/** The daemon's local API as the desktop app calls it: loopback, the local key, JSON. */
export async function callDaemon(
  daemon: { readonly url: string; readonly localKey: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${daemon.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${daemon.localKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** `PUT /llm/settings`: the language model the daemon writes briefs with from now on. */
export async function putLlmSettings(
  daemon: { readonly url: string; readonly localKey: string },
  channel: PutLlmSettingsRequest,
): Promise<LlmSettingsResponse> {
  const response = await callDaemon(daemon, "PUT", "/llm/settings", channel);
  if (!response.ok)
    throw new Error(`PUT /llm/settings answered ${response.status}: ${await response.text()}`);
  return LlmSettingsResponse.parse(await response.json());
}
