import type { ServerResponse } from "node:http";
import type { CallDelivery, CallStatusChange } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };
const OTHER_DEVICE = { id: "dev_phone", name: "Phone" };

let seq = 0;

function send(stream: ServerResponse, event: string, data: { seq: number }): void {
  stream.write(`id: ${data.seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function sendCall(stream: ServerResponse, eventId: string, text: string): Promise<void> {
  seq += 1;
  send(stream, "call", await sealedTrackerCall(PHRASE, seq, eventId, text));
}

function otherDeviceDelivery(eventId: string, outcome: CallDelivery["outcome"], at: Date): CallDelivery {
  seq += 1;
  const { id, name } = OTHER_DEVICE;
  return { seq, eventId, deviceId: id, deviceName: name, outcome, at: at.toISOString() };
}

/** The page runs in en-GB and UTC: a step's time reads as the ISO time of day. */
function clock(at: Date | string): string {
  return new Date(at).toISOString().slice(11, 19);
}

function secondsFrom(base: Date, seconds: number): Date {
  return new Date(base.getTime() + seconds * 1000);
}

describe("delivery outcomes in the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let browser: FileBrowser;
  let page: Page;
  const pageErrors: string[] = [];

  const outcomesOf = (eventId: string) =>
    relay.deliveries.filter((entry) => entry.eventId === eventId).map((entry) => entry.outcome);
  const trailOf = (eventId: string) =>
    page
      .locator(`[data-testid="history-row"][data-event-id="${eventId}"]`)
      .getByTestId("delivery-trail")
      .textContent();

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    browser = await chromiumForFile();
    const device = { viewport: { width: 420, height: 860 }, locale: "en-GB", timezoneId: "UTC" };
    page = await openPage(browser, device, pageErrors);
    await createAccount(page, relay.origin, PHRASE, { timeoutMs: WAIT.timeout });
    send(await relay.stream(0), "synced", { seq: 0 });
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("reports shown when a call rings on the page and opened when it is answered, each once", async () => {
    const stream = await relay.stream(0);
    await sendCall(stream, "e-rung", "Fixed the invoice rounding.");
    await page.getByTestId("ringing-screen").waitFor(WAIT);
    await expect.poll(() => outcomesOf("e-rung"), WAIT).toEqual(["shown"]);
    await page.getByTestId("answer-button").click();
    await page.getByTestId("in-call-screen").waitFor(WAIT);
    await expect.poll(() => outcomesOf("e-rung"), WAIT).toEqual(["shown", "opened"]);
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    const writes = relay.deliveryWrites.filter((write) => write.eventId === "e-rung");
    expect(writes).toEqual([
      { eventId: "e-rung", outcome: "shown", authorization: "Bearer tok_browser_secret", answeredWith: 200 },
      { eventId: "e-rung", outcome: "opened", authorization: "Bearer tok_browser_secret", answeredWith: 200 },
    ]);

    await page.getByTestId("nav-calls").click();
    const trail = await trailOf("e-rung");
    // The trail is in time order: shown first, then the answer and its opened report, which land in the same
    // second in either order (the answer's status write and the opened report are sent together).
    const steps = (trail ?? "").split(" · ");
    expect(steps[0]).toMatch(/^Shown on This browser \d\d:\d\d:\d\d$/);
    expect(steps.slice(1).sort()).toEqual([
      expect.stringMatching(/^answered on This browser \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^opened on This browser \d\d:\d\d:\d\d$/),
    ]);
    await page.getByTestId("nav-home").click();
  });

  it("sends a shown report the relay could not take again after a reload, on the next stream connection", async () => {
    relay.deliveryRefusals = 1;
    await sendCall(await relay.stream(0), "e-retried", "Deployed the staging build.");
    await page.getByTestId("ringing-screen").waitFor(WAIT);
    await expect
      .poll(() => relay.deliveryWrites.filter((write) => write.eventId === "e-retried"), WAIT)
      .toEqual([expect.objectContaining({ outcome: "shown", answeredWith: 503 })]);
    // The page's own retry timer dies with it: only the pending report kept in the call record can bring it back.
    await page.reload();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    send(await relay.stream(1), "synced", { seq });
    await expect.poll(() => outcomesOf("e-retried"), WAIT).toEqual(["shown"]);
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);
  });

  it("shows in the history how far a call got on another device, and who answered it, also after a reload", async () => {
    const stream = await relay.stream(1);
    const startedAt = new Date();
    await sendCall(stream, "e-elsewhere", "Merged the payment retries.");
    await page.getByTestId("ringing-screen").waitFor(WAIT);
    await expect.poll(() => outcomesOf("e-elsewhere"), WAIT).toEqual(["shown"]);
    const shownHere = relay.deliveries.find((entry) => entry.eventId === "e-elsewhere")!;
    const pushedAt = secondsFrom(startedAt, -60);
    const shownAt = secondsFrom(startedAt, -59);
    const openedAt = secondsFrom(startedAt, 60);
    const answeredAt = secondsFrom(startedAt, 61);
    // A call this device has no record of: its outcomes are not kept.
    send(stream, "call-delivery", otherDeviceDelivery("e-unknown", "shown", shownAt));
    send(stream, "call-delivery", otherDeviceDelivery("e-elsewhere", "pushed", pushedAt));
    send(stream, "call-delivery", otherDeviceDelivery("e-elsewhere", "shown", shownAt));
    // A replay of the same outcome changes nothing.
    send(stream, "call-delivery", otherDeviceDelivery("e-elsewhere", "shown", shownAt));
    send(stream, "call-delivery", otherDeviceDelivery("e-elsewhere", "opened", openedAt));
    seq += 1;
    const answer: CallStatusChange = {
      seq,
      eventId: "e-elsewhere",
      status: "answered",
      deviceId: OTHER_DEVICE.id,
      at: answeredAt.toISOString(),
    };
    send(stream, "call-status", answer);
    await page.getByTestId("idle-screen").waitFor(WAIT);

    const expected = [
      `Pushed to Phone ${clock(pushedAt)}`,
      `shown on Phone ${clock(shownAt)}`,
      `shown on This browser ${clock(shownHere.at)}`,
      `opened on Phone ${clock(openedAt)}`,
      `answered on Phone ${clock(answeredAt)}`,
    ].join(" · ");
    await page.getByTestId("nav-calls").click();
    const row = page.locator('[data-testid="history-row"][data-event-id="e-elsewhere"]');
    expect(await row.getByTestId("history-status").textContent()).toBe("Answered on another device");
    await expect.poll(() => trailOf("e-elsewhere"), WAIT).toBe(expected);
    expect(await page.locator('[data-event-id="e-unknown"]').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}delivery-trail.png`, fullPage: true });

    await page.reload();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    await page.getByTestId("nav-calls").click();
    expect(await trailOf("e-elsewhere")).toBe(expected);
    expect(pageErrors).toEqual([]);
  });
});
