import { ESCALATION_SENTENCE } from "@ringback/protocol";
import { type ChannelAccounts, startFakeEscalationChannels } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { sendNtfy } from "./ntfy-channel.js";
import { PUSHOVER_EXPIRE_SECONDS, PUSHOVER_RETRY_SECONDS, sendPushover } from "./pushover-channel.js";
import { sendTelegram } from "./telegram-channel.js";
import { callWithTwilio, TWILIO_TWIML } from "./twilio-channel.js";

const ACCOUNTS: ChannelAccounts = {
  ntfyToken: "tk_ntfysecret0001",
  pushover: { appToken: "azGDORePK8gMaC0QOYAMyEEuzJnyUi", userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG" },
  telegram: { botToken: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", chatId: "987654321" },
  twilio: { accountSid: `AC${"a1".repeat(16)}`, authToken: "f".repeat(32) },
};
const APP_URL = "https://relay.example.net";

describe("the channel clients against stand-ins of the real services", () => {
  it("ntfy: the fixed sentence at max priority, the app as the click, the token as a bearer", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const delivery = await sendNtfy(
      { kind: "ntfy", serverUrl: fake.origin, topic: "rb-alerts_1", token: ACCOUNTS.ntfyToken },
      APP_URL,
    );
    expect(delivery.answer).toEqual({ outcome: "sent", status: 200 });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", url: "/rb-alerts_1", body: ESCALATION_SENTENCE });
    expect(request?.headers).toMatchObject({
      title: "Ringback",
      priority: "5",
      click: APP_URL,
      authorization: `Bearer ${ACCOUNTS.ntfyToken}`,
    });
  });

  it("ntfy: a wrong token is refused with the server's reason", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const delivery = await sendNtfy(
      { kind: "ntfy", serverUrl: fake.origin, topic: "t", token: "tk_wrong" },
      null,
    );
    expect(delivery.answer).toEqual({ outcome: "refused", status: 403, reason: "forbidden" });
  });

  it("Pushover: emergency priority with retry and expire, a receipt polled, then cancelled", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const channel = { kind: "pushover" as const, ...ACCOUNTS.pushover };
    const delivery = await sendPushover(channel, { pushover: fake.origin }, APP_URL);
    expect(delivery.answer).toEqual({ outcome: "sent", status: 200 });
    const form = Object.fromEntries(new URLSearchParams(fake.requests[0]?.body));
    expect(form).toEqual({
      token: ACCOUNTS.pushover.appToken,
      user: ACCOUNTS.pushover.userKey,
      title: "Ringback",
      message: ESCALATION_SENTENCE,
      priority: "2",
      retry: String(PUSHOVER_RETRY_SECONDS),
      expire: String(PUSHOVER_EXPIRE_SECONDS),
      url: APP_URL,
      url_title: "Open Ringback",
    });
    const receipt = fake.receipts[0]?.receipt ?? "";
    const signal = new AbortController().signal;
    expect(await delivery.isAcknowledged?.(signal)).toBe(false);
    fake.acknowledge(receipt);
    expect(await delivery.isAcknowledged?.(signal)).toBe(true);
    expect(fake.requests[1]?.url).toBe(`/1/receipts/${receipt}.json?token=${ACCOUNTS.pushover.appToken}`);
    expect(await delivery.withdraw?.()).toEqual({ outcome: "sent", status: 200 });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", url: `/1/receipts/${receipt}/cancel.json` });
    expect(fake.receipts[0]?.cancelled).toBe(true);
  });

  it("Pushover: a wrong app token is refused with Pushover's own words, and leaves nothing to poll", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const delivery = await sendPushover(
      { kind: "pushover", userKey: ACCOUNTS.pushover.userKey, appToken: "wrongtoken" },
      { pushover: fake.origin },
      null,
    );
    expect(delivery.answer).toEqual({
      outcome: "refused",
      status: 400,
      reason: "application token is invalid",
    });
    expect(delivery.isAcknowledged).toBeUndefined();
  });

  it("Telegram: sendMessage to the chat with the fixed sentence and a button to the app", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const delivery = await sendTelegram(
      { kind: "telegram", ...ACCOUNTS.telegram },
      { telegram: fake.origin },
      APP_URL,
    );
    expect(delivery.answer).toEqual({ outcome: "sent", status: 200 });
    expect(fake.requests[0]?.url).toBe(`/bot${ACCOUNTS.telegram.botToken}/sendMessage`);
    expect(JSON.parse(fake.requests[0]?.body ?? "")).toEqual({
      chat_id: ACCOUNTS.telegram.chatId,
      text: ESCALATION_SENTENCE,
      reply_markup: { inline_keyboard: [[{ text: "Open Ringback", url: APP_URL }]] },
    });
  });

  it("Telegram: a wrong bot token is refused, and the reason does not carry the token", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const delivery = await sendTelegram(
      { kind: "telegram", botToken: "1:wrong", chatId: ACCOUNTS.telegram.chatId },
      { telegram: fake.origin },
      null,
    );
    expect(delivery.answer).toEqual({ outcome: "refused", status: 401, reason: "Unauthorized" });
  });

  it("Twilio: places a call with basic auth that says the fixed line, and hangs it up when withdrawn", async () => {
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const channel = { kind: "twilio" as const, ...ACCOUNTS.twilio, from: "+15005550006", to: "+15551234567" };
    const delivery = await callWithTwilio(channel, { twilio: fake.origin });
    expect(delivery.answer).toEqual({ outcome: "sent", status: 201 });
    const [placed] = fake.requests;
    expect(placed?.url).toBe(`/2010-04-01/Accounts/${ACCOUNTS.twilio.accountSid}/Calls.json`);
    expect(Object.fromEntries(new URLSearchParams(placed?.body))).toEqual({
      To: "+15551234567",
      From: "+15005550006",
      Twiml: TWILIO_TWIML,
    });
    expect(TWILIO_TWIML).toBe(`<Response><Say>${ESCALATION_SENTENCE}</Say></Response>`);
    expect(ESCALATION_SENTENCE).not.toMatch(/[<>&"']/);
    expect(await delivery.withdraw?.()).toEqual({ outcome: "sent", status: 200 });
    expect(fake.calls[0]?.status).toBe("canceled");
  });

  it("an unreachable service is said so, without its address", async () => {
    const fake = await startFakeEscalationChannels(ACCOUNTS);
    await fake.close();
    const delivery = await sendTelegram(
      { kind: "telegram", ...ACCOUNTS.telegram },
      { telegram: fake.origin },
      null,
    );
    expect(delivery.answer).toMatchObject({ outcome: "unreachable" });
    expect(JSON.stringify(delivery.answer)).not.toContain(ACCOUNTS.telegram.botToken);
    expect(JSON.stringify(delivery.answer)).not.toContain(String(fake.port));
  });
});
