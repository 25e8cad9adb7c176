import { createServer, type ServerResponse } from "node:http";
import { formatPairingLink } from "@ringback/client";
import { aad, type E2eKey, generateKey, sealJson } from "@ringback/e2e-crypto";
import { errorBody, PAIRING_CODE_DIGITS, type RelayedEvent } from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, DIST, type FileBrowser, openPage } from "./built-app.js";
import { payloadFor } from "./fixtures.js";
import { forwardRequest } from "./forward-request.js";
import { readBody } from "./stand-in-computer.js";
import { startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };
/** The one code the relay stand-in takes; any other is wrong, used or expired. */
const GOOD_CODE = "3".repeat(PAIRING_CODE_DIGITS);
const WRONG_CODE = "9".repeat(PAIRING_CODE_DIGITS);

/** The relay in front of the test relay: `POST /v1/pairing-codes/redeem` takes GOOD_CODE and refuses the rest. */
async function startPairingRelay(relay: TestRelayServer) {
  const upstream = new URL(relay.origin);
  const redeemed: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (path === "/v1/pairing-codes/redeem" && request.method === "POST") {
      readBody(request)
        .then((text) => {
          const { code } = JSON.parse(text) as { code: string };
          redeemed.push(code);
          if (code === GOOD_CODE) json(201, relay.credentials);
          else json(422, errorBody("invalid_pairing_code"));
        })
        .catch(() => json(400, errorBody("invalid_request")));
      return;
    }
    forwardRequest(request, response, upstream);
  });
  return { ...(await listenOnLoopback(server)), redeemed };
}

let seq = 0;

/** A call the computer raised at `occurredAt`, sealed with the account's key, as the relay's stream sends it. */
async function sendCall(
  stream: ServerResponse,
  key: E2eKey,
  eventId: string,
  occurredAt: Date,
): Promise<void> {
  seq += 1;
  const at = occurredAt.toISOString();
  const payload = payloadFor({ eventId, occurredAt: at, projectName: "Billing", priority: "high" });
  const event: RelayedEvent = {
    seq,
    eventId,
    source: "tracker",
    occurredAt: at,
    receivedAt: at,
    taskId: `task-${eventId}`,
    fromDeviceId: "dev_computer",
    sealed: await sealJson(key, aad.report(eventId), payload),
    status: "pending",
  };
  stream.write(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
}

/** Whether the whole of `locator` is on the screen as it is scrolled now. */
async function isOnScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const height = await page.evaluate(() => window.innerHeight);
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe("a pairing link opened on a phone, in the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let front: Awaited<ReturnType<typeof startPairingRelay>>;
  let browser: FileBrowser;
  let page: Page;
  const key = generateKey();
  const pageErrors: string[] = [];

  const linkWith = (code: string) => formatPairingLink({ serverUrl: front.origin, code, key });

  /** Opens `link` as a phone does when it is tapped: a page load of its own. */
  async function open(link: string): Promise<void> {
    await page.goto("about:blank");
    await page.goto(link);
    await page.getByTestId("welcome-screen").waitFor(WAIT);
  }

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    front = await startPairingRelay(relay);
    browser = await chromiumForFile();
    const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: "en-US" };
    page = await openPage(browser, phone, pageErrors, WAIT.timeout);
  });

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await relay?.close();
  });

  it("leads with the link's account; creating an account waits behind a secondary link", async () => {
    await open(linkWith(WRONG_CODE));
    const join = page.getByTestId("link-join");
    expect(await join.locator("h2").textContent()).toBe("Join the account this link invites you to");
    expect(await join.textContent()).toContain(
      `The link is from the relay at ${new URL(front.origin).host}.`,
    );
    expect(await isOnScreen(page, page.getByTestId("join-with-link"))).toBe(true);
    expect(await page.getByTestId("create-account").count()).toBe(0);
    expect(await page.getByText("Create a new account", { exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}pairing-link-lead.png`, fullPage: true });

    await page.getByTestId("other-ways").tap();
    expect(await page.getByTestId("create-account").isVisible()).toBe(true);
    expect(await page.getByTestId("join-with-code").isVisible()).toBe(true);
  });

  it("says a wrong code where the person is looking", async () => {
    await open(linkWith(WRONG_CODE));
    await page.getByTestId("join-with-link").tap();
    const message = page.getByTestId("welcome-error");
    await message.waitFor(WAIT);
    expect(await message.textContent()).toContain("The pairing code is wrong");
    expect(await isOnScreen(page, message)).toBe(true);

    // Far down the page too: a code typed into the second form, with the page scrolled to it.
    await page.goto("about:blank");
    await page.goto(front.origin);
    await page.getByTestId("pairing-code").fill(WRONG_CODE);
    await page.getByTestId("pairing-phrase").fill("correct horse battery staple");
    await page.getByTestId("join-with-code").tap();
    await message.waitFor(WAIT);
    expect(await message.textContent()).toContain("The pairing code is wrong");
    expect(await isOnScreen(page, message)).toBe(true);
    expect(front.redeemed).toEqual([WRONG_CODE, WRONG_CODE]);
    await page.screenshot({ path: `${ARTIFACTS}pairing-wrong-code.png` });
  });

  it("joins, and does not ring for a call raised before it joined, only for the next one", async () => {
    await open(linkWith(GOOD_CODE));
    const beforeJoining = new Date();
    await page.getByTestId("join-with-link").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    // The relay sends the calls still open on a first connect: one raised before this device joined.
    const stream = await relay.stream(0);
    await sendCall(stream, key, "e-before", new Date(beforeJoining.getTime() - 30_000));
    stream.write(`id: ${seq}\nevent: synced\ndata: ${JSON.stringify({ seq })}\n\n`);
    await page.getByTestId("missed-banner").waitFor(WAIT);
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);

    await sendCall(stream, key, "e-after", new Date());
    await page.locator('[data-testid="ringing-screen"][data-event-id="e-after"]').waitFor(WAIT);
    await page.getByTestId("reject-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    await page.getByTestId("nav-calls").tap();
    const missed = page.locator('[data-testid="missed-row"][data-event-id="e-before"]');
    expect(await missed.textContent()).toContain("Billing");
    expect(relay.statusWrites.map((write) => [write.eventId, write.status])).toEqual([
      ["e-after", "rejected"],
    ]);
    expect(pageErrors).toEqual([]);
  });
});
