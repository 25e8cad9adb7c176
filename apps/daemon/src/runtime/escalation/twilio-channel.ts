import { ESCALATION_SENTENCE, type RungAnswer, type TwilioChannel } from "@ringback/protocol";
import type { z } from "zod";
import { type ChannelEndpoints, endpointUrl } from "./channel-endpoints.js";
import { channelRequest, rungAnswerOf } from "./channel-request.js";
import type { RungDelivery } from "./ladder-rung.js";

type Twilio = z.infer<typeof TwilioChannel>;

/** Call ids are CA and 32 hex digits; anything else never goes into a path. */
const CALL_SID_PATTERN = /^CA[0-9a-fA-F]{32}$/;

/** The line the call says: the fixed sentence, which needs no XML escaping (a test keeps it so). */
export const TWILIO_TWIML = `<Response><Say>${ESCALATION_SENTENCE}</Say></Response>`;

function request(channel: Twilio, fields: Record<string, string>) {
  const credentials = Buffer.from(`${channel.accountSid}:${channel.authToken}`).toString("base64");
  return {
    method: "POST" as const,
    headers: {
      Authorization: `Basic ${credentials}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  };
}

/**
 * Places a phone call (`POST /2010-04-01/Accounts/<sid>/Calls.json`) that says the fixed sentence through the
 * vendor's speech service, which hears it in clear: so it names nothing. Withdrawing it hangs it up.
 */
export async function callWithTwilio(
  channel: Twilio,
  endpoints: Pick<ChannelEndpoints, "twilio">,
  signal?: AbortSignal,
): Promise<RungDelivery> {
  const response = await channelRequest(
    endpointUrl(endpoints.twilio, `/2010-04-01/Accounts/${channel.accountSid}/Calls.json`),
    request(channel, { To: channel.to, From: channel.from, Twiml: TWILIO_TWIML }),
    signal,
  );
  const answer = rungAnswerOf(response, twilioError);
  const callSid = response.kind === "answered" ? (response.body as { sid?: unknown } | null)?.sid : undefined;
  if (answer.outcome !== "sent" || typeof callSid !== "string" || !CALL_SID_PATTERN.test(callSid))
    return { answer };
  return { answer, withdraw: () => hangUp(channel, endpoints, callSid) };
}

/** `canceled` stops a call still queued or ringing; one already picked up takes `completed` instead. */
async function hangUp(
  channel: Twilio,
  endpoints: Pick<ChannelEndpoints, "twilio">,
  callSid: string,
): Promise<RungAnswer> {
  const url = endpointUrl(
    endpoints.twilio,
    `/2010-04-01/Accounts/${channel.accountSid}/Calls/${callSid}.json`,
  );
  const canceled = rungAnswerOf(
    await channelRequest(url, request(channel, { Status: "canceled" })),
    twilioError,
  );
  if (canceled.outcome !== "refused") return canceled;
  return rungAnswerOf(await channelRequest(url, request(channel, { Status: "completed" })), twilioError);
}

/** Twilio's errors are `{"code":20003,"message":"Authenticate","status":401}`. */
function twilioError(body: unknown): string | null {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : null;
}
