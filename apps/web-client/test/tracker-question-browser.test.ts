import { aad, openJson, sealJson } from "@ringback/e2e-crypto";
import { errorBody, ReplyPlaintext } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { payloadFor, trackerQuestionFixture } from "./fixtures.js";
import {
  COMPUTER_ID,
  DELIVERED,
  type NeedsYouRelay,
  type SettleReply,
  startNeedsYouRelay,
} from "./needs-you-relay.js";
import { accountKeyFrom } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 45_000 };

describe("a tracker agent's question in the built web app in Chromium", () => {
  let relay: NeedsYouRelay;
  let browser: FileBrowser;
  let phone: Page;
  const accountKey = accountKeyFrom(PHRASE);
  /** The replies the computer opened: what its daemon would post as comments on the issue. */
  const opened: ReplyPlaintext[] = [];
  const pageErrors: string[] = [];

  /** The computer's daemon: opens a reply sealed for it and takes it (posting the comment is the daemon's test). */
  const settle: SettleReply = async (reply) => {
    const plaintext = ReplyPlaintext.parse(
      await openJson(await accountKey(), aad.replyTo(COMPUTER_ID, reply.eventId), reply.request.sealed),
    );
    opened.push(plaintext);
    return DELIVERED;
  };

  beforeAll(async () => {
    relay = await startNeedsYouRelay(DIST, accountKey, settle, () => ({
      status: 404,
      body: errorBody("not_found"),
    }));
    browser = await chromiumForFile();
    phone = await openPage(
      browser,
      { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-US" },
      pageErrors,
      WAIT.timeout,
    );
    await createAccount(phone, relay.origin, PHRASE, { isTouch: true, timeoutMs: WAIT.timeout });
    await phone.locator('[data-testid="connection-status"][data-state="open"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("rings as Needs you with its own tone, reads the question, and takes a typed reply instead of Allow or Deny", async () => {
    const eventId = "evt_question";
    const occurredAt = new Date();
    const fixture = trackerQuestionFixture(eventId, occurredAt);
    relay.publish({
      eventId,
      source: "tracker",
      occurredAt: occurredAt.toISOString(),
      receivedAt: occurredAt.toISOString(),
      taskId: "digest-of-the-question",
      fromDeviceId: COMPUTER_ID,
      sealed: await sealJson(await accountKey(), aad.report(eventId), payloadFor(fixture)),
    });

    const ringing = phone.locator(`[data-testid="ringing-screen"][data-event-id="${eventId}"]`);
    await ringing.waitFor(WAIT);
    expect(await ringing.getAttribute("data-kind")).toBe("needs-you");
    expect(await ringing.getAttribute("data-ringtone")).toBe("needsYou");
    expect(await ringing.getByTestId("ringing-label").textContent()).toBe("Needs you");
    expect(await ringing.getByTestId("ringing-title").textContent()).toBe("Claude needs you on RING-12");
    await phone.screenshot({ path: `${ARTIFACTS}tracker-question-ringing.png`, fullPage: true });

    await ringing.getByTestId("answer-button").tap();
    const screen = phone.locator(`[data-testid="in-call-screen"][data-event-id="${eventId}"]`);
    await screen.waitFor(WAIT);
    expect(await screen.getAttribute("data-kind")).toBe("needs-you");
    expect(await screen.getByTestId("allow-button").count()).toBe(0);
    expect(await screen.locator(".cards").textContent()).toContain(
      "@Ada redirect the old page, or remove it?",
    );

    const reply = screen.getByTestId("in-call-reply");
    expect(await reply.locator(".hint").textContent()).toContain("it is posted as your comment on the issue");
    await reply.getByTestId("reply-input").fill("Redirect it for a month, then remove it.");
    await reply.getByTestId("send-reply").tap();
    await reply.locator('[data-testid="reply-status"][data-kind="delivered"]').first().waitFor(WAIT);
    await phone.screenshot({ path: `${ARTIFACTS}tracker-question-replied.png`, fullPage: true });

    expect(opened.map(({ text }) => text)).toEqual(["Redirect it for a month, then remove it."]);
    expect(relay.replies.map((sent) => sent.eventId)).toEqual([eventId]);
    expect(pageErrors).toEqual([]);
  });
});
