import type { EscalationChannel } from "@ringback/protocol";
import type { ChannelEndpoints } from "./channel-endpoints.js";
import type { LadderRung } from "./ladder-rung.js";
import { sendNtfy } from "./ntfy-channel.js";
import { sendPushover } from "./pushover-channel.js";
import { sendTelegram } from "./telegram-channel.js";
import { callWithTwilio } from "./twilio-channel.js";

/** A configured channel as a rung of the ladder; `appUrl` is the one link a channel may carry. */
export function channelRung(
  channel: EscalationChannel,
  endpoints: ChannelEndpoints,
  appUrl: string | null,
): LadderRung {
  switch (channel.kind) {
    case "ntfy":
      return { name: "ntfy", ring: (signal) => sendNtfy(channel, appUrl, signal) };
    case "pushover":
      return { name: "pushover", ring: (signal) => sendPushover(channel, endpoints, appUrl, signal) };
    case "telegram":
      return { name: "telegram", ring: (signal) => sendTelegram(channel, endpoints, appUrl, signal) };
    case "twilio":
      return { name: "twilio", ring: (signal) => callWithTwilio(channel, endpoints, signal) };
  }
}
