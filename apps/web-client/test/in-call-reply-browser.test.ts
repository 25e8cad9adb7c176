import type { ServerResponse } from "node:http";
import { aad, deriveKeyFromPassphrase, openJson } from "@ringback/e2e-crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { installSpeechRecognition } from "./heard-speech.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { startTestRelayServer, TEST_ACCOUNT_ID, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };
/** What the browser's speech recognition hears when Speak is tapped (the page's stand-in, heard-speech.ts). */
const SPOKEN = "Tag the release after lunch";

let seq = 0;

async function sendCall(
  stream: ServerResponse,
  eventId: string,
  text: string,
  options: { isBriefFailed?: boolean } = {},
): Promise<void> {
  seq += 1;
  const event = await sealedTrackerCall(PHRASE, seq, eventId, text, options);
  stream.write(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
}

/** How many visible elements on the page say `text` themselves (not only through a child). */
function visibleCount(page: Page, text: string): Promise<number> {
  return page.evaluate((wanted) => {
    let count = 0;
    for (const element of document.body.querySelectorAll("*")) {
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? "")
        .join("");
      if (own.includes(wanted) && element.checkVisibility({ visibilityProperty: true })) count += 1;
    }
    return count;
  }, text);
}

describe("the call screen's reply and a call without a brief, in the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let browser: FileBrowser;
  let page: Page;
  let stream: ServerResponse;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    browser = await chromiumForFile();
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-US" };
    page = await openPage(browser, phone, pageErrors, WAIT.timeout);
    await page.context().addInitScript(installSpeechRecognition, SPOKEN);
    await createAccount(page, relay.origin, PHRASE, { isTouch: true, timeoutMs: WAIT.timeout });
    stream = await relay.stream(0);
    stream.write(`id: 0\nevent: synced\ndata: ${JSON.stringify({ seq: 0 })}\n\n`);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("sends a typed and a spoken reply during the call, sealed for the computer, and the call goes on", async () => {
    await sendCall(stream, "e-reply", "Fixed the invoice rounding.\nAll 42 tests pass.");
    await page.getByTestId("answer-button").tap();
    const screen = page.getByTestId("in-call-screen");
    await screen.waitFor(WAIT);
    const reply = screen.getByTestId("in-call-reply");
    expect(await reply.locator("h2").textContent()).toBe("Reply to the agent");

    await reply.getByTestId("reply-input").fill("Ship it, and run the migration first.");
    await reply.getByTestId("send-reply").tap();
    const lines = reply.getByTestId("reply-line");
    await lines.first().waitFor(WAIT);
    await reply.locator('[data-testid="reply-status"][data-kind="delivered"]').first().waitFor(WAIT);
    expect(await reply.getByTestId("reply-input").inputValue()).toBe("");

    // Spoken: what is heard goes into the box, in the brief's language, and is sent once read over.
    await reply.getByTestId("speak-reply").tap();
    await expect.poll(() => reply.getByTestId("reply-input").inputValue(), WAIT).toBe(SPOKEN);
    expect(await page.evaluate(() => (window as { ringbackListenedIn?: string }).ringbackListenedIn)).toBe(
      "en-US",
    );
    await reply.getByTestId("send-reply").tap();
    await expect.poll(() => lines.count(), WAIT).toBe(2);
    expect(await lines.nth(1).locator(".reply-text").textContent()).toBe(SPOKEN);
    await page.screenshot({ path: `${ARTIFACTS}in-call-reply.png`, fullPage: true });

    // Both went to the relay sealed for the computer that reported the call; the call is still on.
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const opened = await Promise.all(
      relay.replies.map((sent) =>
        openJson(key, aad.replyTo("dev_computer", sent.eventId), sent.request.sealed),
      ),
    );
    expect(relay.replies.map((sent) => sent.eventId)).toEqual(["e-reply", "e-reply"]);
    expect(opened.map((plain) => (plain as { text: string }).text)).toEqual([
      "Ship it, and run the migration first.",
      SPOKEN,
    ]);
    expect(await screen.isVisible()).toBe(true);
    expect(relay.statusWrites.map((write) => write.status)).toEqual(["answered"]);

    // After hang-up the history keeps them.
    await screen.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    await page.getByTestId("nav-calls").tap();
    const row = page.locator('[data-testid="history-row"][data-event-id="e-reply"]');
    await expect.poll(() => row.getByTestId("reply-line").count(), WAIT).toBe(2);
  });

  it("says an empty reply needs words, without sending anything", async () => {
    await page.getByTestId("nav-home").tap();
    await sendCall(stream, "e-empty", "Renamed the config loader.");
    await page.getByTestId("answer-button").tap();
    const reply = page.getByTestId("in-call-reply");
    await reply.getByTestId("send-reply").tap();
    expect(await reply.getByTestId("reply-error").textContent()).toBe("Write a reply first.");
    expect(relay.replies.filter((sent) => sent.eventId === "e-empty")).toEqual([]);
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
  });

  it("shows a report without a brief once: no repeated first line, the original folded", async () => {
    await sendCall(
      stream,
      "e-no-brief",
      "Fixed the invoice rounding.\nChanged the currency table.\nAll 214 tests pass.",
      {
        isBriefFailed: true,
      },
    );
    await page.getByTestId("answer-button").tap();
    const screen = page.getByTestId("in-call-screen");
    await screen.waitFor(WAIT);
    expect(await screen.locator("h1").textContent()).toBe("The agent's report");
    expect(await screen.getByTestId("no-brief").textContent()).toBe(
      "No brief was written for this call (No language model is configured on this computer.): the agent's own report is read.",
    );
    for (const line of [
      "Fixed the invoice rounding.",
      "Changed the currency table.",
      "All 214 tests pass.",
    ]) {
      expect({ line, shown: await visibleCount(page, line) }).toEqual({ line, shown: 1 });
    }
    // The report as written is one tap away, folded.
    expect(await screen.getByTestId("original-report").isVisible()).toBe(false);
    await screen.locator(".original summary").tap();
    expect(await screen.getByTestId("original-report").isVisible()).toBe(true);
    expect(await screen.getByTestId("in-call-reply").isVisible()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}in-call-no-brief.png`, fullPage: true });
    await screen.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    expect(pageErrors).toEqual([]);
  });
});
