import { isRingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { publicEscalation, savedEscalation, updatedEscalation } from "./escalation-settings.js";

const TWILIO_SID = `AC${"0".repeat(32)}`;
const saved = {
  escalation: {
    channels: [
      { kind: "ntfy", serverUrl: "https://ntfy.example.org", topic: "rb", token: "tk_savedntfytoken" },
      {
        kind: "pushover",
        userKey: "usersavedkey000000000000000000",
        appToken: "appsavedtoken0000000000000000",
      },
      { kind: "telegram", botToken: "111:savedbottoken", chatId: "42" },
      {
        kind: "twilio",
        accountSid: TWILIO_SID,
        authToken: "savedtwiliotoken",
        from: "+15005550006",
        to: "+15551234567",
      },
    ],
  },
};

function refusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (isRingbackError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("not refused");
}

describe("escalation settings", () => {
  it("defaults to no channel, needs-you after 60 s, finished never, away after 2 minutes idle", () => {
    expect(savedEscalation({})).toEqual({
      channels: [],
      schedule: {
        needsYou: { afterSeconds: 60, stepSeconds: 30 },
        finished: { afterSeconds: null, stepSeconds: 30 },
      },
      idleAwaySeconds: 120,
    });
  });

  it("shows every secret as a hint only", () => {
    const shown = JSON.stringify(publicEscalation(savedEscalation(saved)));
    for (const secret of [
      "tk_savedntfytoken",
      "usersavedkey",
      "appsavedtoken",
      "savedbottoken",
      "savedtwiliotoken",
    ]) {
      expect(shown).not.toContain(secret);
    }
    expect(publicEscalation(savedEscalation(saved)).channels[0]).toEqual({
      kind: "ntfy",
      serverUrl: "https://ntfy.example.org",
      topic: "rb",
      tokenHint: "****oken",
    });
  });

  it("keeps a secret left out, in the order given", () => {
    const updated = updatedEscalation(saved, {
      channels: [
        { kind: "twilio", accountSid: TWILIO_SID, from: "+15005550006", to: "+15550000000" },
        { kind: "telegram", chatId: "43" },
        { kind: "pushover" },
        { kind: "ntfy", serverUrl: "https://ntfy.example.org/", topic: "other" },
      ],
    });
    expect(updated.channels.map((channel) => channel.kind)).toEqual([
      "twilio",
      "telegram",
      "pushover",
      "ntfy",
    ]);
    expect(updated.channels[0]).toMatchObject({ authToken: "savedtwiliotoken", to: "+15550000000" });
    expect(updated.channels[1]).toMatchObject({ botToken: "111:savedbottoken", chatId: "43" });
    expect(updated.channels[3]).toMatchObject({ token: "tk_savedntfytoken", topic: "other" });
  });

  it("never sends a saved secret somewhere new: another ntfy server or Twilio account needs its own", () => {
    const moved = updatedEscalation(saved, {
      channels: [{ kind: "ntfy", serverUrl: "https://attacker.example", topic: "rb" }],
    });
    expect(moved.channels[0]).not.toHaveProperty("token");
    expect(
      refusal(() =>
        updatedEscalation(saved, {
          channels: [
            { kind: "twilio", accountSid: `AC${"1".repeat(32)}`, from: "+15005550006", to: "+15551234567" },
          ],
        }),
      ),
    ).toBe(
      "invalid_escalation_settings: The Twilio auth token for this account is required: none is saved on this computer.",
    );
  });

  it("refuses a secret it has nowhere to take from, a channel twice, and a bad number", () => {
    expect(refusal(() => updatedEscalation({}, { channels: [{ kind: "telegram", chatId: "42" }] }))).toMatch(
      /^invalid_escalation_settings: The Telegram bot token is required/,
    );
    expect(
      refusal(() => updatedEscalation(saved, { channels: [{ kind: "pushover" }, { kind: "pushover" }] })),
    ).toMatch(/each channel once/);
    expect(
      refusal(() =>
        updatedEscalation(saved, {
          channels: [{ kind: "twilio", accountSid: TWILIO_SID, from: "555", to: "+15551234567" }],
        }),
      ),
    ).toMatch(/phone number/);
  });
});
