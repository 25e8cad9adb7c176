import { createServer, type ServerResponse } from "node:http";
import { formatPairingLink } from "@ringback/client";
import { aad, deriveKeyFromPassphrase, generateKey, sealJson } from "@ringback/e2e-crypto";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { errorBody, PAIRING_CODE_DIGITS, type RelayedEvent } from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, DIST, type FileBrowser, openPage } from "./built-app.js";
import { type DispatchRelayServer, startDispatchRelayServer } from "./dispatch-relay-server.js";
import { askFor, needsYouFixture, payloadFor } from "./fixtures.js";
import { forwardRequest } from "./forward-request.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { settingsBackedDaemon, trackerAccount } from "./settings-backed-daemon.js";
import type { StandInDaemon } from "./stand-in-computer.js";
import { accountKeyFrom, TEST_ACCOUNT_ID } from "./test-relay-server.js";
import { trackerBackedDaemon } from "./tracker-backed-daemon.js";

const PHRASE = "correct horse battery staple";
/** The phone widths every screen must fit: the narrowest phones in use, a common one, and a large one. */
const WIDTHS = [320, 390, 430] as const;
const HEIGHT = 780;
/** Settings' sections as its index lists them. */
const SECTIONS = ["ringing", "language-voice", "questions", "computer", "devices"] as const;
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 45_000 };
/** A project and a title as long as real ones get, and a report with a path that has nowhere to break. */
const PROJECT = "Billing and invoicing platform";
const LONG_TITLE =
  "Fixed the invoice rounding bug that appeared when a customer paid in a currency with three decimal places";
const REPORT = [
  "Fixed the invoice rounding.",
  "Changed /home/user/projects/billing-platform/services/invoicing/src/rounding/currency-precision-table.ts",
  "All 214 tests pass.",
].join("\n");

/** What sticks out sideways on the page as shown at `width`: the document, and any visible element past an edge. */
interface Overflow {
  readonly screen: string;
  readonly width: number;
  /** The page's own width: the viewport's when the page cannot be zoomed out to fit something wider. */
  readonly innerWidth: number;
  /** The document's width when it is wider than the screen (the page scrolls sideways), else null. */
  readonly documentWider: number | null;
  /** Visible elements whose box, as far as no scrolling ancestor clips it, passes the left or right edge. */
  readonly offenders: readonly string[];
}

async function overflowAt(page: Page, screen: string, width: number): Promise<Overflow> {
  const found = await page.evaluate((viewport) => {
    window.scrollTo(0, window.scrollY);
    const describe = (element: Element, left: number, right: number) => {
      const testId = element.getAttribute("data-testid");
      const classes = element.getAttribute("class");
      const text = (element.textContent ?? "").trim().slice(0, 40);
      return `<${element.tagName.toLowerCase()}${testId ? ` data-testid="${testId}"` : ""}${
        classes ? ` class="${classes}"` : ""
      }> "${text}" spans ${Math.round(left)}..${Math.round(right)}`;
    };
    const offenders: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      let { left, right } = box;
      // What a scrolling or clipping ancestor hides is not on screen (a code block scrolls inside its box).
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        if (getComputedStyle(parent).overflowX === "visible") continue;
        const clip = parent.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      if (right - left <= 0) continue;
      if (right > viewport + 0.5 || left < -0.5) offenders.push(describe(element, left, right));
    }
    const scrollWidth = document.documentElement.scrollWidth;
    return {
      innerWidth: window.innerWidth,
      documentWider: scrollWidth > viewport ? scrollWidth : null,
      offenders: offenders.slice(0, 12),
    };
  }, width);
  return { screen, width, ...found };
}

/**
 * Shows the screen `ready` stands for at each phone width, with a screenshot of the whole page, and fails on
 * anything wider than the screen: the document, or any visible element past its edge.
 */
async function expectFitsEveryWidth(page: Page, screen: string, ready: Locator): Promise<void> {
  const results: Overflow[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await ready.waitFor(WAIT);
    await page.waitForFunction((expected) => window.innerWidth >= expected, width, WAIT);
    await page.screenshot({ path: `${ARTIFACTS}phone-${screen}-${width}.png`, fullPage: true });
    results.push(await overflowAt(page, screen, width));
  }
  expect(results).toEqual(
    WIDTHS.map((width) => ({ screen, width, innerWidth: width, documentWider: null, offenders: [] })),
  );
}

/** The phones a call must fit whole: the narrowest, a common and a large one upright, and a phone on its side. */
const CALL_SCREENS = [
  { name: "320", width: 320, height: 568 },
  { name: "390", width: 390, height: 844 },
  { name: "430", width: 430, height: 932 },
  { name: "landscape", width: 844, height: 390 },
] as const;

/** How a call screen sits in one phone's screen: a document taller than it, and the controls not wholly in it. */
interface CallFit {
  readonly screen: string;
  readonly size: string;
  /** The document's height when it is taller than the screen (the page itself scrolls), else null. */
  readonly documentTaller: number | null;
  /** The controls (by test id) missing, or not wholly inside the screen. */
  readonly outside: readonly string[];
}

/**
 * Shows the call at each phone size, upright and on its side, with a screenshot of the screen, and fails unless it
 * is one screen: the document no taller than the viewport, and each of `controls` wholly inside it.
 */
async function expectCallFitsOneScreen(
  page: Page,
  screen: string,
  controls: readonly string[],
): Promise<void> {
  const results: CallFit[] = [];
  for (const size of CALL_SCREENS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.waitForFunction(
      ([width, height]) => window.innerWidth === width && window.innerHeight === height,
      [size.width, size.height] as const,
      WAIT,
    );
    await page.screenshot({ path: `${ARTIFACTS}call-${screen}-${size.name}.png` });
    const measured = await page.evaluate((testIds) => {
      const isInside = (testId: string) => {
        const element = document.querySelector(`[data-testid="${testId}"]`);
        const box = element?.getBoundingClientRect();
        if (!box || box.width === 0 || box.height === 0) return false;
        return (
          box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth
        );
      };
      const height = document.documentElement.scrollHeight;
      return {
        documentTaller: height > window.innerHeight ? height : null,
        outside: testIds.filter((testId) => !isInside(testId)),
      };
    }, controls);
    results.push({ screen, size: size.name, ...measured });
  }
  expect(results).toEqual(
    CALL_SCREENS.map((size) => ({ screen, size: size.name, documentTaller: null, outside: [] })),
  );
}

/** The main text of a call: who calls, the brief's title, and the spoken text. */
const CALL_MAIN_TEXT = [".call-header .caller", ".call-header h1", ".reading .sentence"] as const;
/** WCAG 2's least contrast for body text (level AA). */
const TEXT_CONTRAST_MIN = 4.5;

/**
 * The contrast ratio (WCAG 2) of each selector's first element's text against what is behind it: its own background
 * and its ancestors' composited, over the canvas of the colour scheme. Colours are read through a canvas, so any CSS
 * colour form counts as the browser paints it.
 */
function contrastOf(page: Page, selectors: readonly string[]): Promise<Record<string, number | null>> {
  return page.evaluate((wanted) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    if (!context) throw new Error("no 2d canvas");
    const rgba = (color: string): [number, number, number, number] => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], below: number[]) =>
      [0, 1, 2].map((index) => (top[index] ?? 0) * (top[3] ?? 1) + (below[index] ?? 0) * (1 - (top[3] ?? 1)));
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((channel) => {
        const value = channel / 255;
        return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const isDark = matchMedia("(prefers-color-scheme: dark)").matches;
    const result: Record<string, number | null> = {};
    for (const selector of wanted) {
      const element = document.querySelector(selector);
      if (!element) {
        result[selector] = null;
        continue;
      }
      const layers: number[][] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const layer = rgba(getComputedStyle(node).backgroundColor);
        if ((layer[3] ?? 0) > 0) layers.push(layer);
        if (layer[3] === 1) break;
      }
      let background = isDark ? [18, 18, 18] : [255, 255, 255];
      for (const layer of layers.reverse()) background = over(layer, background);
      const text = over(rgba(getComputedStyle(element).color), background);
      const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a);
      result[selector] = Math.round((((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05)) * 100) / 100;
    }
    return result;
  }, selectors);
}

/**
 * The call at 390 px in the light and the dark colour scheme, a screenshot of each, and the contrast of its main
 * text at least `TEXT_CONTRAST_MIN` in both.
 */
async function expectCallReadableInBothSchemes(page: Page, screen: string): Promise<void> {
  const size = CALL_SCREENS[1];
  await page.setViewportSize({ width: size.width, height: size.height });
  const found: Record<string, Record<string, number | null>> = {};
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(
      (dark) => matchMedia("(prefers-color-scheme: dark)").matches === dark,
      colorScheme === "dark",
      WAIT,
    );
    await page.screenshot({ path: `${ARTIFACTS}call-${screen}-${size.name}-${colorScheme}.png` });
    found[colorScheme] = await contrastOf(page, CALL_MAIN_TEXT);
  }
  await page.emulateMedia({ colorScheme: "light" });
  const tooFaint = Object.entries(found).flatMap(([colorScheme, ratios]) =>
    Object.entries(ratios)
      .filter(([, ratio]) => ratio === null || ratio < TEXT_CONTRAST_MIN)
      .map(([selector, ratio]) => `${colorScheme} ${selector}: ${ratio}`),
  );
  expect(tooFaint).toEqual([]);
  // The schemes differ: a dark screenshot that looks like the light one would pass the ratio and prove nothing.
  expect(found.dark).not.toEqual(found.light);
}

/** The controls of a report's call, whatever the speaker's state. */
const REPORT_CALL_CONTROLS = ["back-button", "skip-button", "reply-control", "hang-up-button"] as const;

let seq = 0;

/** Whether the element is wholly inside the viewport as it is shown now. */
async function isWhollyOnScreen(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return (
      box.height > 0 &&
      box.top >= 0 &&
      box.left >= 0 &&
      box.bottom <= window.innerHeight &&
      box.right <= window.innerWidth
    );
  });
}

/** A tracker task's call as the relay relays it, raised `ageMs` ago, with a brief or, without a model, none. */
async function sendCall(
  stream: ServerResponse,
  eventId: string,
  options: { ageMs?: number; isBriefFailed?: boolean } = {},
): Promise<void> {
  seq += 1;
  const event = await sealedTrackerCall(PHRASE, seq, eventId, REPORT, {
    ...options,
    projectName: PROJECT,
    brief: { title: LONG_TITLE },
  });
  stream.write(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
}

/** The command of an agent's ask as long as real ones get, with a path that has nowhere to break. */
const LONG_COMMAND =
  "rm -rf /home/user/projects/billing-platform/services/invoicing/build/generated-currency-precision-tables && npm run build -- --filter invoicing";

/** A "needs you" call as the relay relays it: Claude Code asks to run LONG_COMMAND, and waits. */
async function sendAsk(stream: ServerResponse, eventId: string): Promise<void> {
  seq += 1;
  const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
  const occurred = new Date();
  const fixture = needsYouFixture(
    eventId,
    occurred,
    askFor(occurred, { toolInput: { command: LONG_COMMAND } }),
  );
  const payload = payloadFor({
    ...fixture,
    brief: { ...fixture.brief, cards: [{ title: "Command", body: LONG_COMMAND }] },
  });
  const event: RelayedEvent = {
    seq,
    eventId,
    source: "claude-code",
    occurredAt: occurred.toISOString(),
    receivedAt: occurred.toISOString(),
    taskId: null,
    fromDeviceId: "dev_computer",
    sealed: await sealJson(key, aad.report(eventId), payload),
    status: "pending",
  };
  stream.write(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
}

/** While true, the phone's relay does not answer: every `/v1/` connection is cut (the page itself still loads). */
let isRelayUnreachable = false;

/**
 * The relay as a phone meets it: pairing codes are made (Settings › Devices › Add a device) and a wrong one is
 * refused as the relay refuses it; everything else goes to the dispatch relay stand-in and its computer.
 */
async function startPhoneRelay(upstreamOrigin: string): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamOrigin);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (isRelayUnreachable && path.startsWith("/v1/")) {
      request.socket.destroy();
      return;
    }
    if (path === "/v1/pairing-codes" && request.method === "POST") {
      json(201, {
        code: "7".repeat(PAIRING_CODE_DIGITS),
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      });
      return;
    }
    if (path === "/v1/pairing-codes/redeem" && request.method === "POST") {
      json(422, errorBody("invalid_pairing_code"));
      return;
    }
    forwardRequest(request, response, upstream);
  });
  return listenOnLoopback(server);
}

const PHONE = {
  viewport: { width: WIDTHS[0], height: HEIGHT },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  locale: "en-US",
};

describe("every screen on a phone, 320 to 430 px wide, in Chromium with touch", () => {
  let fake: FakeMultica;
  let server: DispatchRelayServer;
  let relay: { origin: string; close(): Promise<void> };
  let browser: FileBrowser;
  let page: Page;
  let stream: ServerResponse;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fake = await startFakeMultica();
    const account = trackerAccount(fake);
    fake.state.addProject(account.workspaceIds.ring, { title: PROJECT });
    const runtime = fake.state.addRuntime(account.workspaceIds.ring, { status: "online" });
    fake.state.addAgent(account.workspaceIds.ring, { name: "Claude", runtime_id: runtime.id });
    const settings = settingsBackedDaemon({ trackerUrl: fake.url });
    Object.assign(settings.state, { token: account.token, workspaces: [account.workspaceIds.ring] });
    const dispatch = trackerBackedDaemon({
      trackerUrl: fake.url,
      token: account.token,
      workspaceId: account.workspaceIds.ring,
    });
    // Dispatch goes to the tracker; the settings screens to the computer's settings.
    const daemon: StandInDaemon = (request) =>
      /^\/tracker\/(dispatch|uploads)/.test(request.path)
        ? dispatch.daemon(request)
        : settings.daemon(request);
    server = await startDispatchRelayServer(DIST, accountKeyFrom(PHRASE), daemon);
    relay = await startPhoneRelay(server.origin);
    browser = await chromiumForFile();
    page = await openPage(browser, PHONE, pageErrors, WAIT.timeout);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
    await server?.close();
    await fake?.close();
  });

  it("the welcome page, opened plainly and from a pairing link, and a wrong code's message", async () => {
    await page.goto(relay.origin);
    await expectFitsEveryWidth(page, "welcome", page.getByTestId("welcome-screen"));

    const link = formatPairingLink({
      serverUrl: relay.origin,
      code: "4".repeat(PAIRING_CODE_DIGITS),
      key: generateKey(),
    });
    // Another page first: a link to this page that differs only in its fragment would not load it again.
    await page.goto("about:blank");
    await page.goto(link);
    await expectFitsEveryWidth(page, "welcome-from-link", page.getByTestId("welcome-screen"));

    await page.getByTestId("join-with-link").tap();
    await expectFitsEveryWidth(page, "welcome-wrong-code", page.getByTestId("welcome-error"));
  });

  it("the home page, with a missed call", async () => {
    // A new phone: the welcome test left this one on a pairing link's page with a refused code.
    await page.context().close();
    page = await openPage(browser, PHONE, pageErrors, WAIT.timeout);
    await page.goto(relay.origin);
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    stream = await server.relay.stream(0);
    stream.write(`id: 0\nevent: synced\ndata: ${JSON.stringify({ seq: 0 })}\n\n`);
    await expectFitsEveryWidth(page, "idle", page.getByTestId("first-call"));

    // Before any call, Home says how calls come and rings this device now: a test call, which takes no reply and says why.
    await page.getByTestId("ring-test-call").tap();
    expect(await page.getByTestId("caller").textContent()).toBe("Ringback");
    await page.getByTestId("answer-button").tap();
    await page.getByTestId("test-call-no-reply").waitFor(WAIT);
    await expectCallFitsOneScreen(page, "test-call", REPORT_CALL_CONTROLS);
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);

    // Raised five minutes ago: the device learns of it late, and it is missed, not rung.
    await sendCall(stream, "e-missed", { ageMs: 5 * 60_000 });
    await expectFitsEveryWidth(page, "idle-missed", page.getByTestId("missed-banner"));
  });

  it("a ringing call, then the call screen with a brief", async () => {
    await sendCall(stream, "e-brief");
    await expectFitsEveryWidth(page, "ringing", page.getByTestId("ringing-screen"));
    await page.getByTestId("answer-button").tap();
    await expectFitsEveryWidth(page, "in-call", page.getByTestId("in-call-screen"));
    await expectCallFitsOneScreen(page, "report", REPORT_CALL_CONTROLS);
    await expectCallReadableInBothSchemes(page, "report");
    // Reply brings the reply box up, its Send within the first screen of the narrowest phone.
    await page.setViewportSize({ width: WIDTHS[0], height: CALL_SCREENS[0].height });
    await page.getByTestId("reply-control").tap();
    await expect.poll(() => isWhollyOnScreen(page.getByTestId("send-reply")), WAIT).toBe(true);
    expect(await isWhollyOnScreen(page.getByTestId("reply-input"))).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}call-report-reply-320.png` });
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
  });

  it("the call screen of a report without a brief (no model on the computer)", async () => {
    await sendCall(stream, "e-no-brief", { isBriefFailed: true });
    await page.getByTestId("answer-button").tap();
    await expectFitsEveryWidth(page, "in-call-no-brief", page.getByTestId("in-call-screen"));
    await expectCallFitsOneScreen(page, "report-no-brief", REPORT_CALL_CONTROLS);
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
  });

  it("a needs-you call ringing, then its call screen: the whole command, Allow once and Deny within reach", async () => {
    await sendAsk(stream, "needs_phone");
    await expectFitsEveryWidth(page, "needs-you-ringing", page.getByTestId("ringing-screen"));
    await page.getByTestId("answer-button").tap();
    const screen = page.locator('[data-testid="in-call-screen"][data-kind="needs-you"]');
    await expectFitsEveryWidth(page, "needs-you-in-call", screen.getByTestId("allow-button"));
    expect(await screen.getByTestId("ask-card").locator("pre").textContent()).toBe(LONG_COMMAND);
    await expectCallFitsOneScreen(page, "needs-you", [
      "deny-button",
      "allow-button",
      "back-button",
      "skip-button",
      "hang-up-button",
    ]);
    // On the narrowest phone both buttons are a thumb's target, side by side.
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    for (const button of ["deny-button", "allow-button"]) {
      const box = await screen.getByTestId(button).boundingBox();
      expect({ button, height: (box?.height ?? 0) >= 48, width: (box?.width ?? 0) >= 120 }).toEqual({
        button,
        height: true,
        width: true,
      });
    }
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
  });

  it("a round-up: three calls ring once, then its call screen with Next, Skip and Answer within reach", async () => {
    // Raised after this device joined (a call raised before it never rings here), the first one earlier.
    await sendCall(stream, "e-round-1", { ageMs: 2000 });
    await sendCall(stream, "e-round-2", { ageMs: 1000 });
    await sendAsk(stream, "needs_round");
    await expect.poll(() => page.getByTestId("round-up-list").locator("li").count(), WAIT).toBe(3);
    await expectFitsEveryWidth(page, "round-up-ringing", page.getByTestId("round-up-list"));
    await page.getByTestId("answer-button").tap();
    await expectFitsEveryWidth(page, "round-up-in-call", page.getByTestId("round-up-bar"));
    await expectCallFitsOneScreen(page, "round-up", [
      "round-up-skip",
      "round-up-answer",
      "round-up-next",
      "deny-button",
      "allow-button",
      "back-button",
      "skip-button",
      "hang-up-button",
    ]);
    // Next leaves the opening for the first call (the ask), then goes on to a report: its reply is in reach too.
    await page.getByTestId("round-up-next").tap();
    await expect.poll(() => page.getByTestId("round-up-position").textContent(), WAIT).toBe("1 of 3");
    await page.getByTestId("round-up-next").tap();
    await page.locator('[data-testid="in-call-screen"][data-event-id="e-round-1"]').waitFor(WAIT);
    await expectCallFitsOneScreen(page, "round-up-report", [
      "round-up-skip",
      "round-up-answer",
      "round-up-next",
      ...REPORT_CALL_CONTROLS,
    ]);
    // Hanging up ends the round-up: the call not reached waits among the missed calls, not ringing again.
    await page.getByTestId("hang-up-button").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    // Three screens at seven sizes on a shared machine: more than one test's usual minute.
  }, 180_000);

  it("the calls page: missed calls and the history, with a reply being written", async () => {
    await page.getByTestId("nav-calls").tap();
    await expectFitsEveryWidth(page, "calls", page.getByTestId("missed-row").first());
    const answered = page.locator('[data-testid="history-row"][data-event-id="e-brief"]');
    await answered.getByTestId("reply-button").tap();
    await answered.getByTestId("reply-input").fill("Ship it, then look at the rounding of refunds too.");
    await expectFitsEveryWidth(page, "calls-reply", answered.getByTestId("reply-input"));
  });

  it("the dispatch page", async () => {
    await page.getByTestId("nav-dispatch").tap();
    await expectFitsEveryWidth(
      page,
      "dispatch",
      page.locator('[data-testid="dispatch-blocker"][data-blocker="empty"]'),
    );
  });

  it("settings: the index of sections within a thumb's reach, each section, and the devices with an invitation", async () => {
    await page.getByTestId("nav-settings").tap();
    const index = page.locator('[data-testid="settings-screen"][data-section="index"]');
    await expectFitsEveryWidth(page, "settings", index);
    // The whole index fits the first screen of the narrowest phone, each entry a target a thumb hits.
    const entries = page.locator('[data-testid^="settings-section-"]');
    expect(await entries.count()).toBe(SECTIONS.length);
    await page.setViewportSize({ width: WIDTHS[0], height: 640 });
    for (const entry of await entries.all()) {
      const box = await entry.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(48);
      expect((box?.y ?? Number.POSITIVE_INFINITY) + (box?.height ?? 0)).toBeLessThanOrEqual(640);
    }

    for (const section of SECTIONS) {
      await page.getByTestId(`settings-section-${section}`).tap();
      const shown = page.locator(`[data-testid="settings-screen"][data-section="${section}"]`);
      if (section === "computer")
        await page.locator('[data-testid="computer-model-settings"][data-state="empty"]').waitFor(WAIT);
      await expectFitsEveryWidth(page, `settings-${section}`, shown);
      if (section === "ringing") {
        // The mode editor, with the longest texts it shows: away hours in a mode that does not ring.
        await page.locator('[data-testid="mode-row"][data-mode-id="sleep"]').getByTestId("mode-edit").tap();
        const editor = page.getByTestId("mode-editor");
        await editor.getByTestId("mode-away").check();
        await editor.getByTestId("mode-away-silent").waitFor(WAIT);
        await expectFitsEveryWidth(page, "settings-ringing-mode-editor", editor);
        await editor.getByTestId("cancel-mode").tap();
      }
      if (section === "devices") {
        await page.getByTestId("add-device").tap();
        await expectFitsEveryWidth(page, "settings-devices-invitation", page.getByTestId("invitation-link"));
      }
      await page.getByTestId("settings-index").tap();
      await index.waitFor(WAIT);
    }
    expect(pageErrors).toEqual([]);
  });

  it("a relay out of reach: its banner on every page, and the step that takes a new pairing link", async () => {
    isRelayUnreachable = true;
    // Opened again while its relay does not answer: the banner shows at once.
    await page.reload();
    const banner = page.getByTestId("relay-unreachable");
    for (const tab of ["home", "calls", "dispatch", "settings"]) {
      await page.getByTestId(`nav-${tab}`).tap();
      await expectFitsEveryWidth(page, `relay-unreachable-${tab}`, banner.getByTestId("rejoin"));
    }
    await banner.getByTestId("rejoin").tap();
    await expectFitsEveryWidth(page, "rejoin", page.getByTestId("rejoin-screen"));
    // A link for this same web app: the welcome page opened from it, with the way back above it.
    const link = formatPairingLink({
      serverUrl: relay.origin,
      code: "5".repeat(PAIRING_CODE_DIGITS),
      key: generateKey(),
    });
    await page.getByTestId("rejoin-link-input").fill(link);
    await page.getByTestId("rejoin-open").tap();
    await expectFitsEveryWidth(
      page,
      "rejoin-welcome",
      page.locator('[data-testid="welcome-screen"][data-opened-from="link"]'),
    );
    await page.getByTestId("rejoin-back").tap();
    isRelayUnreachable = false;
    await banner.waitFor({ state: "detached", ...WAIT });
    expect(pageErrors).toEqual([]);
  });
});
