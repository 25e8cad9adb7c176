import {
  ESCALATION_SENTENCE,
  ESCALATION_TITLE,
  type PushoverChannel,
  type RungAnswer,
} from "@ringback/protocol";
import type { z } from "zod";
import { type ChannelEndpoints, endpointUrl } from "./channel-endpoints.js";
import { channelRequest, rungAnswerOf } from "./channel-request.js";
import type { RungDelivery } from "./ladder-rung.js";

/** Emergency priority: repeated until acknowledged; on an iPhone the user can make it a critical alert. */
const PUSHOVER_EMERGENCY_PRIORITY = "2";
/** Pushover's shortest repeat (it refuses less than 30 s). */
export const PUSHOVER_RETRY_SECONDS = 30;
/** How long Pushover repeats at most (its limit is 10,800 s); the ladder cancels it sooner once the call is answered. */
export const PUSHOVER_EXPIRE_SECONDS = 900;
/** Receipts are ids of letters and digits; anything else never goes into a path. */
const RECEIPT_PATTERN = /^[A-Za-z0-9]{1,64}$/;

type Pushover = z.infer<typeof PushoverChannel>;

function form(fields: Record<string, string>): { headers: Record<string, string>; body: string } {
  return {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  };
}

/**
 * Sends the fixed sentence at emergency priority (`POST /1/messages.json`). The delivery polls its receipt for the
 * person's acknowledgement and cancels the repeats when the call is answered elsewhere.
 */
export async function sendPushover(
  channel: Pushover,
  endpoints: Pick<ChannelEndpoints, "pushover">,
  appUrl: string | null,
  signal?: AbortSignal,
): Promise<RungDelivery> {
  const fields: Record<string, string> = {
    token: channel.appToken,
    user: channel.userKey,
    title: ESCALATION_TITLE,
    message: ESCALATION_SENTENCE,
    priority: PUSHOVER_EMERGENCY_PRIORITY,
    retry: String(PUSHOVER_RETRY_SECONDS),
    expire: String(PUSHOVER_EXPIRE_SECONDS),
  };
  if (appUrl) Object.assign(fields, { url: appUrl, url_title: "Open Ringback" });
  const response = await channelRequest(
    endpointUrl(endpoints.pushover, "/1/messages.json"),
    { method: "POST", ...form(fields) },
    signal,
  );
  const answer = rungAnswerOf(response, pushoverError);
  const receipt =
    response.kind === "answered" ? (response.body as { receipt?: unknown } | null)?.receipt : undefined;
  if (answer.outcome !== "sent" || typeof receipt !== "string" || !RECEIPT_PATTERN.test(receipt))
    return { answer };
  return {
    answer,
    isAcknowledged: (pollSignal) => isReceiptAcknowledged(channel, endpoints, receipt, pollSignal),
    withdraw: () => cancelReceipt(channel, endpoints, receipt),
  };
}

/** `GET /1/receipts/<receipt>.json?token=…`: acknowledged is 1 once the person tapped it. */
async function isReceiptAcknowledged(
  channel: Pushover,
  endpoints: Pick<ChannelEndpoints, "pushover">,
  receipt: string,
  signal: AbortSignal,
): Promise<boolean> {
  const url = endpointUrl(endpoints.pushover, `/1/receipts/${receipt}.json`);
  url.searchParams.set("token", channel.appToken);
  const response = await channelRequest(url, { method: "GET" }, signal);
  if (response.kind !== "answered" || response.status !== 200) return false;
  return (response.body as { acknowledged?: unknown } | null)?.acknowledged === 1;
}

/** `POST /1/receipts/<receipt>/cancel.json`: the emergency repeats stop. */
async function cancelReceipt(
  channel: Pushover,
  endpoints: Pick<ChannelEndpoints, "pushover">,
  receipt: string,
): Promise<RungAnswer> {
  const response = await channelRequest(
    endpointUrl(endpoints.pushover, `/1/receipts/${receipt}/cancel.json`),
    {
      method: "POST",
      ...form({ token: channel.appToken }),
    },
  );
  return rungAnswerOf(response, pushoverError);
}

/** Pushover's errors are `{"status":0,"errors":["…"]}`. */
function pushoverError(body: unknown): string | null {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.every((error) => typeof error === "string")
    ? errors.join("; ")
    : null;
}
