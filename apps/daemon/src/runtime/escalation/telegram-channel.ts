import { ESCALATION_SENTENCE, type TelegramChannel } from "@ringback/protocol";
import type { z } from "zod";
import { type ChannelEndpoints, endpointUrl } from "./channel-endpoints.js";
import { channelRequest, rungAnswerOf } from "./channel-request.js";
import type { RungDelivery } from "./ladder-rung.js";

/**
 * Sends the fixed sentence to the chat (`POST /bot<token>/sendMessage`), with a button that opens the app when it has
 * an https address (Telegram refuses other button links). The token is in the path: the URL is never logged.
 */
export async function sendTelegram(
  channel: z.infer<typeof TelegramChannel>,
  endpoints: Pick<ChannelEndpoints, "telegram">,
  appUrl: string | null,
  signal?: AbortSignal,
): Promise<RungDelivery> {
  const message: Record<string, unknown> = { chat_id: channel.chatId, text: ESCALATION_SENTENCE };
  if (appUrl?.startsWith("https://")) {
    message.reply_markup = { inline_keyboard: [[{ text: "Open Ringback", url: appUrl }]] };
  }
  const response = await channelRequest(
    endpointUrl(endpoints.telegram, `/bot${channel.botToken}/sendMessage`),
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(message) },
    signal,
  );
  return { answer: rungAnswerOf(response, telegramError) };
}

/** Telegram's errors are `{"ok":false,"error_code":401,"description":"Unauthorized"}`. */
function telegramError(body: unknown): string | null {
  const description = (body as { description?: unknown } | null)?.description;
  return typeof description === "string" ? description : null;
}
