import { ERROR_STATUS, errorBody, type SettingsResultPlaintext } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumForFile, createAccount, DIST, type FileBrowser } from "./built-app.js";
import { type DispatchRelayServer, startDispatchRelayServer } from "./dispatch-relay-server.js";
import type { StandInDaemon } from "./stand-in-computer.js";
import { accountKeyFrom } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 45_000 };

describe("dispatch on a computer without a tracker, in the built web app in Chromium", () => {
  let server: DispatchRelayServer;
  let browser: FileBrowser;
  let page: Page;
  let hasTracker = false;
  const pageErrors: string[] = [];

  /** A daemon whose tracker is not set up until the test says so. */
  const daemon: StandInDaemon = async (request): Promise<SettingsResultPlaintext> => {
    const route = `${request.method} ${request.path}`;
    if (route === "GET /tracker/dispatches") return { status: 200, body: { dispatches: [] } };
    if (route === "GET /tracker/dispatch/options" && hasTracker)
      return { status: 200, body: { workspaceId: "ws", projects: [], agents: [] } };
    return { status: ERROR_STATUS.tracker_not_configured, body: errorBody("tracker_not_configured") };
  };

  beforeAll(async () => {
    server = await startDispatchRelayServer(DIST, accountKeyFrom(PHRASE), daemon);
    browser = await chromiumForFile();
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    page.setDefaultTimeout(WAIT.timeout);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("says what to set up instead of showing a form that cannot send, and shows the form once it is set up", async () => {
    await createAccount(page, server.origin, PHRASE);
    await page.getByTestId("nav-dispatch").click();
    const setup = page.getByTestId("dispatch-setup-needed");
    await setup.waitFor(WAIT);
    expect(await setup.textContent()).toContain("Settings › Your computer › Tracker");
    expect(await page.getByTestId("dispatch-words").count()).toBe(0);
    expect(await page.getByTestId("dispatch-button").count()).toBe(0);

    hasTracker = true;
    await page.getByTestId("dispatch-retry").click();
    await page.getByTestId("dispatch-words").waitFor(WAIT);
    expect(await setup.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
