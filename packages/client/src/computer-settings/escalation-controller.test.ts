import type { EscalationSettingsResponse, PutEscalationSettingsRequest } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { type EscalationClient, EscalationController } from "./escalation-controller.js";

const SAVED: EscalationSettingsResponse = {
  channels: [
    { kind: "ntfy", serverUrl: "https://ntfy.sh", topic: "rb", tokenHint: "****ab12" },
    { kind: "pushover", userKeyHint: "****user", appTokenHint: "****app1" },
  ],
  schedule: {
    needsYou: { afterSeconds: 60, stepSeconds: 30 },
    finished: { afterSeconds: null, stepSeconds: 30 },
  },
  idleAwaySeconds: 120,
};

function client(sent: PutEscalationSettingsRequest[]): EscalationClient {
  return {
    escalationSettings: async () => SAVED,
    saveEscalationSettings: async (request) => {
      sent.push(request);
      return SAVED;
    },
    testEscalation: async () => ({ rungs: [{ rung: "ntfy", answer: { outcome: "sent", status: 200 } }] }),
  };
}

describe("EscalationController", () => {
  it("sends the saved channels back without their secrets, a new one added last", async () => {
    const sent: PutEscalationSettingsRequest[] = [];
    const controller = new EscalationController(async () => client(sent));
    await controller.load();
    await controller.saveChannel({ kind: "telegram", botToken: "1:abc", chatId: "42" });
    expect(sent[0]).toEqual({
      channels: [
        { kind: "ntfy", serverUrl: "https://ntfy.sh", topic: "rb" },
        { kind: "pushover" },
        { kind: "telegram", botToken: "1:abc", chatId: "42" },
      ],
    });
    expect(controller.view.notice).toBe("saved");
  });

  it("removes a channel, keeps the schedule it is given, and shows a test's answers", async () => {
    const sent: PutEscalationSettingsRequest[] = [];
    const controller = new EscalationController(async () => client(sent));
    await controller.load();
    await controller.removeChannel("ntfy");
    await controller.saveTiming({ idleAwaySeconds: null });
    expect(sent).toEqual([
      { channels: [{ kind: "pushover" }] },
      {
        channels: [{ kind: "ntfy", serverUrl: "https://ntfy.sh", topic: "rb" }, { kind: "pushover" }],
        idleAwaySeconds: null,
      },
    ]);
    await controller.test();
    expect(controller.view.testResult?.rungs[0]?.answer.outcome).toBe("sent");
  });
});
