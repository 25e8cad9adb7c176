import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import {
  callRecordKey,
  LAST_EVENT_ID_KEY,
  RING_MODES_KEY,
} from "../../packages/client/src/storage/storage-keys.ts";
import type { DeviceBrowser } from "./chromium.ts";
import { readDeviceValue, writeDeviceValue } from "./device-storage.ts";
import { ARTIFACTS_DIR } from "./paths.ts";
import type { RingMode } from "./ring-modes.ts";
import { installRingStopwatch, ringTimes } from "./ring-stopwatch.ts";

/** How long a step in the browser may take on a shared, busy machine. Behaviour is asserted, never speed. */
export const UI_WAIT_MS = 30_000;
/** The same bound for the kit's `eventually` (a count of checks 20 ms apart, not a time). */
export const UI_WAIT_CHECKS = 1_500;
const VIEWPORT = { width: 420, height: 860 };
// The interface follows the browser's language: English, whose texts the steps below find their way by.
const LOCALE = "en-US";
/** What the app shows once it has loaded a paired device: the home page, a ringing call or a call in progress. */
const READY_SCREENS =
  '[data-testid="idle-screen"], [data-testid="ringing-screen"], [data-testid="in-call-screen"]';

/**
 * One companion device: a browser context of its own (its own IndexedDB, service worker and stream) with the web
 * app open. Methods are the user's steps and what the user sees; disposing closes the context.
 */
export class Device implements AsyncDisposable {
  readonly name: string;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors in the page (not console noise such as a failed request). */
  readonly pageErrors: string[] = [];

  constructor(name: string, context: BrowserContext, page: Page) {
    this.name = name;
    this.context = context;
    this.page = page;
    page.on("pageerror", (error) => this.pageErrors.push(String(error)));
  }

  /** Opens a new device and joins the account through a pairing link, as a person does by opening the link. */
  static async join(browser: DeviceBrowser, name: string, pairingLink: string): Promise<Device> {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: LOCALE });
    await installRingStopwatch(context);
    const device = new Device(name, context, await context.newPage());
    const consoleErrors: string[] = [];
    device.page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    try {
      await device.page.goto(pairingLink);
      await device.page.getByTestId("welcome-screen").waitFor({ timeout: UI_WAIT_MS });
      await device.page.getByLabel("This device's name").fill(name);
      await device.page.getByTestId("join-with-link").click();
      await device.page.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
      await device.waitForStream();
    } catch (error) {
      // What the page showed and said, so a failure on a busy CI machine can be told from a broken app.
      const body = await device.page
        .locator("body")
        .textContent({ timeout: 1_000 })
        .then((text) => text ?? "")
        .catch(() => "(unreadable)");
      const seen = `page ${device.page.url().split("#")[0]}; body: ${body.slice(0, 200)}; page errors: ${
        device.pageErrors.join(" | ") || "none"
      }; console errors: ${consoleErrors.join(" | ") || "none"}`;
      await context.close();
      throw new Error(`${name} could not join: ${String(error)}\n${seen}`, { cause: error });
    }
    return device;
  }

  /** Waits until the relay stream is open (the idle page says so). */
  async waitForStream(): Promise<void> {
    await this.page
      .locator('[data-testid="connection-status"][data-state="open"]')
      .waitFor({ timeout: UI_WAIT_MS });
  }

  /** Waits for a call to ring (`eventId`'s, when given) and returns its event id. */
  async waitForRinging(eventId?: string): Promise<string> {
    const screen = this.ringingScreen(eventId);
    await screen.waitFor({ timeout: UI_WAIT_MS });
    const shown = await screen.getAttribute("data-event-id");
    if (!shown) throw new Error(`${this.name}: the ringing screen names no call`);
    return shown;
  }

  /** Waits until no call rings (another device answered, the call ended, or it was answered here). */
  async waitForNoRinging(): Promise<void> {
    await this.ringingScreen().waitFor({ state: "detached", timeout: UI_WAIT_MS });
  }

  ringingScreen(eventId?: string): Locator {
    const byId = eventId === undefined ? "" : `[data-event-id="${eventId}"]`;
    return this.page.locator(`[data-testid="ringing-screen"]${byId}`);
  }

  inCallScreen(eventId?: string): Locator {
    const byId = eventId === undefined ? "" : `[data-event-id="${eventId}"]`;
    return this.page.locator(`[data-testid="in-call-screen"]${byId}`);
  }

  /** Answers the ringing call and waits for the in-call screen. */
  async answer(eventId: string): Promise<void> {
    await this.ringingScreen(eventId).getByTestId("answer-button").click();
    await this.inCallScreen(eventId).waitFor({ timeout: UI_WAIT_MS });
  }

  /** Rejects the ringing call and waits until it stops ringing. */
  async reject(eventId: string): Promise<void> {
    await this.ringingScreen(eventId).getByTestId("reject-button").click();
    await this.ringingScreen(eventId).waitFor({ state: "detached", timeout: UI_WAIT_MS });
  }

  /** Hangs up the call in progress and waits until the call screen is gone (the page open before it shows). */
  async hangUp(eventId: string): Promise<void> {
    await this.inCallScreen(eventId).getByTestId("hang-up-button").click();
    await this.inCallScreen(eventId).waitFor({ state: "detached", timeout: UI_WAIT_MS });
  }

  /** Opens the calls page (missed calls, then history) from the main navigation. */
  async openCalls(): Promise<void> {
    await this.page.getByTestId("nav-calls").click({ timeout: UI_WAIT_MS });
    await this.page.getByTestId("calls-page").waitFor({ timeout: UI_WAIT_MS });
  }

  /** A call's row in the calls page's missed list. */
  missedRow(eventId: string): Locator {
    return this.page.locator(`[data-testid="missed-row"][data-event-id="${eventId}"]`);
  }

  /** A call's row in the calls page's history. */
  historyRow(eventId: string): Locator {
    return this.page.locator(`[data-testid="history-row"][data-event-id="${eventId}"]`);
  }

  /** The status text of a call in the history ("Answered on another device", ...), once the row shows. */
  async historyStatus(eventId: string): Promise<string> {
    const status = this.historyRow(eventId).getByTestId("history-status");
    await status.waitFor({ timeout: UI_WAIT_MS });
    return (await status.textContent()) ?? "";
  }

  /** Reloads the page (a restart of the app) and waits until it shows a paired device again. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.page.locator(READY_SCREENS).first().waitFor({ timeout: UI_WAIT_MS });
  }

  /**
   * Reloads as a device that has handled nothing of the stream yet: the stored stream position is set back to the
   * start, so the relay replays every event of the account (calls included) after the reload.
   */
  async reloadReplayingStream(): Promise<void> {
    await writeDeviceValue(this.page, LAST_EVENT_ID_KEY, "0");
    await this.reload();
    await this.waitForStream();
  }

  /** The call record this device keeps for `eventId` (the spec's client record `call.<eventId>`), if any. */
  storedCall(eventId: string): Promise<unknown> {
    return readDeviceValue(this.page, callRecordKey(eventId));
  }

  /**
   * Sets the device's ring modes. The app has no ring-mode screen yet, so they are written to the device's storage
   * where Settings › Ring modes keeps them, and the page is reloaded: the app reads its modes at start.
   */
  async setRingModes(modes: readonly RingMode[]): Promise<void> {
    await writeDeviceValue(this.page, RING_MODES_KEY, modes);
    await this.reload();
    await this.waitForStream();
  }

  /** The ring modes the device has stored. */
  ringModes(): Promise<unknown> {
    return readDeviceValue(this.page, RING_MODES_KEY);
  }

  /** Event id -> when its ringing screen appeared (Unix ms), since the page last loaded. */
  ringTimes(): Promise<Record<string, number>> {
    return ringTimes(this.page);
  }

  /** Saves a screenshot as test-artifacts/<name>.png and returns its path. */
  async screenshot(name: string, options: { fullPage?: boolean } = {}): Promise<string> {
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    const path = join(ARTIFACTS_DIR, `${name}.png`);
    await this.page.screenshot({ path, fullPage: options.fullPage ?? false });
    return path;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.context.close();
  }
}
