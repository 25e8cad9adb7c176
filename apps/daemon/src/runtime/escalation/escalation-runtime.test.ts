import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type ChannelAccounts,
  makeTemporaryDirectory,
  startFakeEscalationChannels,
} from "@ringback/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigFile } from "../files/config-file.js";
import { EscalationRuntime } from "./escalation-runtime.js";

const ACCOUNTS: ChannelAccounts = {
  pushover: { appToken: "apptoken000000000000000000000", userKey: "userkey0000000000000000000000" },
  telegram: { botToken: "1:bottoken", chatId: "42" },
  twilio: { accountSid: `AC${"b".repeat(32)}`, authToken: "twiliotoken" },
};

async function runtimeWith(dataDir: string, origin: string, schedule: unknown) {
  const escalation = {
    channels: [
      { kind: "ntfy", serverUrl: origin, topic: "rb" },
      { kind: "pushover", ...ACCOUNTS.pushover },
      { kind: "telegram", ...ACCOUNTS.telegram },
      { kind: "twilio", ...ACCOUNTS.twilio, from: "+15005550006", to: "+15551234567" },
    ],
    schedule,
  };
  await writeFile(
    join(dataDir, "daemon.json"),
    JSON.stringify({ serverUrl: "https://relay.example.net", escalation }),
  );
  const lines: string[] = [];
  const config = await ConfigFile.load(dataDir, () => undefined);
  const runtime = new EscalationRuntime({
    config,
    env: {},
    endpoints: { pushover: origin, telegram: origin, twilio: origin },
    log: (line) => lines.push(line),
  });
  return { runtime, lines };
}

const timing = (afterSeconds: number | null) => ({
  needsYou: { afterSeconds, stepSeconds: 10 },
  finished: { afterSeconds: null, stepSeconds: 30 },
});

describe("EscalationRuntime", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rings every channel on schedule, then cancels the receipt and hangs up the call once answered", async () => {
    await using directory = await makeTemporaryDirectory();
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const { runtime, lines } = await runtimeWith(directory.path, fake.origin, timing(10));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const ladder = runtime.start("needs-you", "ev-1", new Date());
    expect(ladder).not.toBeNull();
    await vi.advanceTimersByTimeAsync(9_000);
    expect(fake.requests).toHaveLength(0);
    for (let step = 0; step < 200 && fake.calls.length === 0; step += 1)
      await vi.advanceTimersByTimeAsync(500);
    const firstOf = (service: string) =>
      fake.requests.find((request) => request.service === service)?.at ?? 0;
    const start = firstOf("ntfy");
    expect(firstOf("pushover") - start).toBeGreaterThanOrEqual(10_000);
    expect(firstOf("telegram") - firstOf("pushover")).toBeGreaterThanOrEqual(10_000);
    expect(firstOf("twilio") - firstOf("telegram")).toBeGreaterThanOrEqual(10_000);
    vi.useRealTimers();
    await ladder?.stop();
    expect(fake.receipts[0]?.cancelled).toBe(true);
    expect(fake.calls[0]?.status).toBe("canceled");
    expect(lines.join("\n")).toContain("ev-1: escalation rung twilio withdrawn: sent (HTTP 200)");
    for (const line of lines) expect(line).not.toMatch(/apptoken|bottoken|twiliotoken|userkey/);
  });

  it("starts no ladder for a kind that never escalates", async () => {
    await using directory = await makeTemporaryDirectory();
    const { runtime } = await runtimeWith(directory.path, "http://127.0.0.1:9", timing(null));
    expect(runtime.start("needs-you", "ev-1", new Date())).toBeNull();
    expect(runtime.start("finished", "ev-1", new Date())).toBeNull();
  });

  it("tests every channel now and says what each answered; Pushover's alert is cancelled, the call left to ring", async () => {
    await using directory = await makeTemporaryDirectory();
    await using fake = await startFakeEscalationChannels(ACCOUNTS);
    const { runtime } = await runtimeWith(directory.path, fake.origin, timing(60));
    fake.failNext("telegram", 429);
    const result = await runtime.test();
    expect(result.rungs).toEqual([
      {
        rung: "push",
        answer: { outcome: "skipped", reason: "the repeat push is sent with a ringing call only" },
      },
      { rung: "ntfy", answer: { outcome: "sent", status: 200 } },
      { rung: "pushover", answer: { outcome: "sent", status: 200 } },
      { rung: "telegram", answer: { outcome: "refused", status: 429, reason: "Refused by the test" } },
      { rung: "twilio", answer: { outcome: "sent", status: 201 } },
    ]);
    expect(fake.receipts[0]?.cancelled).toBe(true);
    expect(fake.calls[0]?.status).toBe("queued");
    await expect(runtime.test()).rejects.toMatchObject({ code: "rate_limited" });
  });
});
