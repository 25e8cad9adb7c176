import type { ServerResponse } from "node:http";
import type { CallStatusChange } from "@ringback/protocol";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, DIST, launchChromium } from "./built-app.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";

let seq = 0;

function send(stream: ServerResponse, event: string, data: unknown, id?: number): void {
  stream.write(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function sendCall(stream: ServerResponse, eventId: string, text: string): Promise<void> {
  seq += 1;
  const event = await sealedTrackerCall(PHRASE, seq, eventId, text);
  send(stream, "call", event, seq);
}

function sendStatus(stream: ServerResponse, eventId: string, deviceId: string): void {
  seq += 1;
  const change: CallStatusChange = {
    seq,
    eventId,
    status: "answered",
    deviceId,
    at: new Date().toISOString(),
  };
  send(stream, "call-status", change, seq);
}

describe("the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 420, height: 860 } });
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("loads the welcome page with no console errors", async () => {
    await page.goto(relay.origin);
    await page.getByTestId("welcome-screen").waitFor();
    await page.screenshot({ path: `${ARTIFACTS}welcome.png`, fullPage: true });
    expect(consoleErrors).toEqual([]);
  });

  it("creates an account, then a sealed call rings and is answered", async () => {
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").click();
    await page.getByTestId("idle-screen").waitFor();
    const stream = await relay.stream(0);
    send(stream, "synced", { seq: 0 }, 0);
    await sendCall(stream, "e-first", "Fixed the invoice rounding.\nAll tests pass.");
    await page.getByTestId("ringing-screen").waitFor();
    expect(await page.getByTestId("caller").textContent()).toBe("Billing");
    await page.screenshot({ path: `${ARTIFACTS}ringing.png` });
    await page.getByTestId("answer-button").click();
    await page.getByTestId("in-call-screen").waitFor();
    expect(await page.getByTestId("original-report").textContent()).toContain("Fixed the invoice rounding.");
    await page.screenshot({ path: `${ARTIFACTS}in-call.png`, fullPage: true });
    await expect
      .poll(() => relay.statusWrites)
      .toContainEqual({
        eventId: "e-first",
        status: "answered",
        authorization: `Bearer ${relay.credentials.deviceToken}`,
      });
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor();
    await expect.poll(() => relay.statusWrites.map((write) => write.status)).toEqual(["answered", "ended"]);
    expect(consoleErrors).toEqual([]);
  });

  it("stops ringing when another device answers, and says so in the history", async () => {
    const stream = await relay.stream(0);
    await sendCall(stream, "e-second", "Deployed the staging build.");
    await page.getByTestId("ringing-screen").waitFor();
    sendStatus(stream, "e-second", "dev_laptop");
    await page.getByTestId("idle-screen").waitFor();
    await page.getByTestId("nav-calls").click();
    const second = page.locator('[data-testid="history-row"][data-event-id="e-second"]');
    expect(await second.getByTestId("history-status").textContent()).toBe("Answered on another device");
    const first = page.locator('[data-testid="history-row"][data-event-id="e-first"]');
    expect(await first.getByTestId("history-status").textContent()).toBe("Answered");
    await page.screenshot({ path: `${ARTIFACTS}calls-page.png`, fullPage: true });
  });

  it("after a reload, a call already ended is not shown again and its result is re-reported", async () => {
    await page.reload();
    await page.getByTestId("idle-screen").waitFor();
    const stream = await relay.stream(1);
    const writesBefore = relay.statusWrites.length;
    await sendCall(stream, "e-first", "Fixed the invoice rounding.\nAll tests pass.");
    await expect
      .poll(() => relay.statusWrites.slice(writesBefore))
      .toEqual([
        { eventId: "e-first", status: "ended", authorization: `Bearer ${relay.credentials.deviceToken}` },
      ]);
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);
  });

  it("answers the call a clicked notification names, in a new window or in the open one", async () => {
    // The service worker's notificationclick opens `#call=<id>` (no window) or posts the id (a window is open).
    await page.goto(`${relay.origin}/?opened-by=notification#call=e-clicked`);
    await page.getByTestId("idle-screen").waitFor();
    expect(new URL(page.url()).hash).toBe("");
    const stream = await relay.stream(2);
    await sendCall(stream, "e-clicked", "Merged the payment retries.");
    await page.getByTestId("in-call-screen").waitFor();
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor();

    await page.evaluate(() => {
      const data = { type: "ringback-open-call", eventId: "e-messaged" };
      navigator.serviceWorker.dispatchEvent(new MessageEvent("message", { data }));
    });
    await sendCall(stream, "e-messaged", "Rotated the staging keys.");
    await page.getByTestId("in-call-screen").waitFor();
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor();
    // The status write travels after the screen changed: wait for it rather than read it at once.
    const answered = () =>
      relay.statusWrites.filter((write) => write.status === "answered").map((write) => write.eventId);
    await expect.poll(answered).toEqual(expect.arrayContaining(["e-clicked", "e-messaged"]));
  });

  it("keeps working offline from the service worker's cache", async () => {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId("idle-screen").waitFor();
    await context.setOffline(false);
  });

  it("returns to the welcome page when the relay says the device was removed", async () => {
    const stream = await relay.stream(3);
    send(stream, "device-removed", { deviceId: relay.credentials.deviceId });
    await page.getByTestId("welcome-screen").waitFor();
    // It is told how to join again.
    const notice = page.getByText("This device was removed from the account");
    expect(await notice.count()).toBe(1);
    expect(await notice.textContent()).toContain("To join again, open a new pairing link here");
  });
});
