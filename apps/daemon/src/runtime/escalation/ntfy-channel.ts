import { ESCALATION_SENTENCE, ESCALATION_TITLE, type NtfyChannel } from "@ringback/protocol";
import type { z } from "zod";
import { endpointUrl } from "./channel-endpoints.js";
import { channelRequest, rungAnswerOf } from "./channel-request.js";
import type { RungDelivery } from "./ladder-rung.js";

/** ntfy's highest priority (5, "max"/"urgent"): the Android app can let it through Do Not Disturb. */
const NTFY_PRIORITY_MAX = "5";

/** Publishes the fixed sentence to the topic (`POST <server>/<topic>`), at max priority, a tap opening the app. */
export async function sendNtfy(
  channel: z.infer<typeof NtfyChannel>,
  appUrl: string | null,
  signal?: AbortSignal,
): Promise<RungDelivery> {
  const headers: Record<string, string> = {
    "Content-Type": "text/plain; charset=utf-8",
    Title: ESCALATION_TITLE,
    Priority: NTFY_PRIORITY_MAX,
    Tags: "telephone_receiver",
  };
  if (appUrl) headers.Click = appUrl;
  if (channel.token) headers.Authorization = `Bearer ${channel.token}`;
  const response = await channelRequest(
    endpointUrl(channel.serverUrl, `/${channel.topic}`),
    { method: "POST", headers, body: ESCALATION_SENTENCE },
    signal,
  );
  return { answer: rungAnswerOf(response, ntfyError) };
}

/** ntfy's errors are `{"code":40101,"http":401,"error":"unauthorized"}`. */
function ntfyError(body: unknown): string | null {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : null;
}
