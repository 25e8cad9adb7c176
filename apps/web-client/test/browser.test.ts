import type { ServerResponse } from "node:http";
import { sealFleetState } from "@ringback/e2e-crypto";
import { type CallStatusChange, FLEET_PAD_STEP_BYTES, type FleetState } from "@ringback/protocol";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, DIST, type FileBrowser } from "./built-app.js";
import { askFor, needsYouEvent } from "./fixtures.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { installSpeechCapture } from "./spoken-speech.js";
import { accountKeyFrom, startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Each call is prepared (its voice made) before it rings, on a busy shared machine: wait, do not time it. */
const POLL = { timeout: 30_000 };

let seq = 0;

function send(stream: ServerResponse, event: string, data: unknown, id?: number): void {
  stream.write(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function sendCall(
  stream: ServerResponse,
  eventId: string,
  text: string,
  options?: Parameters<typeof sealedTrackerCall>[4],
): Promise<void> {
  seq += 1;
  const event = await sealedTrackerCall(PHRASE, seq, eventId, text, options);
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
  let browser: FileBrowser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    browser = await chromiumForFile();
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

/** When the page says it joined the account, as it stored it: calls raised before then are not rung there. */
async function storedJoinedAt(page: Page): Promise<string> {
  const stored = await page.waitForFunction(
    () =>
      new Promise<string | null>((resolve) => {
        const opening = indexedDB.open("keyval-store");
        opening.onsuccess = () => {
          const request = opening.result
            .transaction("keyval", "readonly")
            .objectStore("keyval")
            .get("identity");
          request.onsuccess = () => {
            opening.result.close();
            resolve((request.result as { joinedAt?: string } | undefined)?.joinedAt ?? null);
          };
        };
      }),
  );
  return (await stored.jsonValue()) as string;
}

describe("several agents at once in the built web app in Chromium: one ringing call and its round-up", () => {
  const accountKey = accountKeyFrom(PHRASE);
  let relay: TestRelayServer;
  let browser: FileBrowser;
  let page: Page;
  let stream: ServerResponse;
  /** How long ago a call raised `ms` after the page joined was raised, so the calls keep their order. */
  /** When the calls start to be raised: no earlier than the page joined and than the test began. */
  let raisedFrom = 0;
  const consoleErrors: string[] = [];
  const spoken = () =>
    page.evaluate(() => (window as unknown as { ringbackSpoken: string[] }).ringbackSpoken);

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    browser = await chromiumForFile();
    const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
    await context.addInitScript(installSpeechCapture);
    page = await context.newPage();
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    await page.goto(relay.origin);
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").click();
    await page.getByTestId("idle-screen").waitFor();
    stream = await relay.stream(0);
    send(stream, "synced", { seq: 0 }, 0);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("three calls arriving close together ring once, and its spoken opening names all three, needs-you first", async () => {
    raisedFrom = Math.max(Date.parse(await storedJoinedAt(page)), Date.now());
    await sendCall(stream, "e-docs", "Fixed the links.", {
      projectName: "Docs",
      occurredAt: new Date(raisedFrom + 1),
      brief: { title: "Links fixed" },
    });
    await sendCall(stream, "e-search", "Tuned the ranking.", {
      projectName: "Search",
      occurredAt: new Date(raisedFrom + 2),
      brief: { title: "Ranking tuned" },
    });
    seq += 1;
    const asked = new Date(raisedFrom + 3);
    const ask = await needsYouEvent(await accountKey(), "e-payments", asked, askFor(asked), "dev_computer");
    send(stream, "call", { ...ask, seq, status: "pending" }, seq);

    const ringing = page.getByTestId("ringing-screen");
    await ringing.waitFor();
    const listed = page.getByTestId("round-up-list").locator("li");
    await expect.poll(() => listed.count(), POLL).toBe(3);
    expect(await page.getByTestId("ringing-label").textContent()).toBe("3 agents are waiting for you");
    expect(
      await listed.evaluateAll((items) => items.map((item) => item.getAttribute("data-event-id"))),
    ).toEqual(["e-payments", "e-docs", "e-search"]);
    // One ring: only the ringing call was shown; the others are answered in the round-up, never rung.
    await expect
      .poll(() => relay.deliveryWrites.filter((write) => write.outcome === "shown").length, POLL)
      .toBe(1);

    await page.getByTestId("answer-button").click();
    await page.getByTestId("round-up-bar").waitFor();
    await expect
      .poll(async () => (await spoken())[0], POLL)
      .toBe(
        "Three agents. project needs you: run a command. Docs finished: Links fixed. Search finished: Ranking tuned.",
      );
    // Then the first call, the one that needs the person, is read.
    await expect.poll(() => page.getByTestId("round-up-position").textContent(), POLL).toBe("1 of 3");
    expect(await page.getByTestId("in-call-screen").getAttribute("data-event-id")).toBe("e-payments");
    await expect.poll(async () => (await spoken()).length, POLL).toBeGreaterThan(1);
    expect(consoleErrors).toEqual([]);
  });

  it("a call that arrives during the round-up joins its end, and Next and Skip go through to the end", async () => {
    await sendCall(stream, "e-billing", "Fixed the invoices.", {
      projectName: "Billing",
      brief: { title: "Invoices fixed" },
    });
    await page.getByTestId("round-up-joined").waitFor();
    expect(await page.getByTestId("round-up-joined").getAttribute("data-event-id")).toBe("e-billing");
    await expect.poll(() => page.getByTestId("round-up-position").textContent(), POLL).toContain("1 of 4");
    // Nothing rings while the round-up is on: the new call waits its turn in it.
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);

    const order: (string | null)[] = [];
    for (const button of ["round-up-next", "round-up-skip", "round-up-next"] as const) {
      order.push(await page.getByTestId("in-call-screen").getAttribute("data-event-id"));
      await page.getByTestId(button).click();
      await page.waitForFunction(
        (previous) =>
          document.querySelector('[data-testid="in-call-screen"]')?.getAttribute("data-event-id") !==
          previous,
        order.at(-1),
      );
    }
    order.push(await page.getByTestId("in-call-screen").getAttribute("data-event-id"));
    expect(order).toEqual(["e-payments", "e-docs", "e-search", "e-billing"]);
    await page.getByTestId("round-up-next").click();
    await page.getByTestId("idle-screen").waitFor();
    // Docs was skipped: it waits among the missed calls; the others were heard.
    await page.getByTestId("nav-calls").click();
    await expect
      .poll(() =>
        relay.statusWrites.filter((write) => write.status === "ended").map((write) => write.eventId),
      )
      .toEqual(["e-payments", "e-search", "e-billing"]);
    await page.getByTestId("nav-home").click();
  });

  it("the fleet card lists every computer's agents from their sealed states, newest change first, and follows a change", async () => {
    const key = await accountKey();
    // As a computer's daemon seals it: padded to whole steps, for its own relay device id.
    const sealedState = async (computerId: string, state: FleetState) => ({
      computerId,
      sealed: await sealFleetState(key, computerId, state, FLEET_PAD_STEP_BYTES),
      receivedAt: new Date().toISOString(),
    });
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const agent = (agentId: string, project: string, since: string) => ({
      agentId,
      source: "claude-code" as const,
      project,
      state: "working" as const,
      since,
      eventId: null,
      headline: null,
    });
    const laptop: FleetState = {
      version: 1,
      updatedAt: new Date().toISOString(),
      agents: [agent("claude-code:s1", "payments", minutesAgo(12))],
    };
    send(stream, "fleet", await sealedState("dev_laptop", laptop));
    send(
      stream,
      "fleet",
      await sealedState("dev_desktop", {
        version: 4,
        updatedAt: new Date().toISOString(),
        agents: [{ ...agent("codex:s2", "docs", minutesAgo(3)), source: "codex" }],
      }),
    );
    const words = page.getByTestId("fleet-card").getByTestId("fleet-words");
    await expect.poll(() => words.allTextContents(), POLL).toEqual(["working 3 min", "working 12 min"]);

    send(
      stream,
      "fleet",
      await sealedState("dev_laptop", {
        ...laptop,
        version: 2,
        agents: [
          {
            ...laptop.agents[0]!,
            state: "finished",
            since: minutesAgo(0),
            eventId: "e-docs",
            headline: "links fixed",
          },
        ],
      }),
    );
    await expect
      .poll(() => words.allTextContents())
      .toEqual(["finished just now — links fixed", "working 3 min"]);
    // A state older than the one held (replayed on a reconnect) changes nothing.
    send(stream, "fleet", await sealedState("dev_laptop", laptop));
    await page.getByTestId("fleet-card").screenshot({ path: `${ARTIFACTS}fleet-card.png` });
    expect(await words.allTextContents()).toEqual(["finished just now — links fixed", "working 3 min"]);
    // One tap on the finished agent opens its call: Docs was skipped in the round-up, so it is answered and read.
    await page.locator('[data-testid="fleet-entry"][data-agent-id="claude-code:s1"]').click();
    await page.getByTestId("in-call-screen").waitFor();
    expect(await page.getByTestId("in-call-screen").getAttribute("data-event-id")).toBe("e-docs");
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor();
  });
});
