import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumHandle, launchChromium } from "../harness/chromium.ts";
import { type DaemonProcess, runRingback, startDaemon } from "../harness/daemon-process.ts";
import { Device, UI_WAIT_MS } from "../harness/device.ts";
import { claudeStopPayload, runHook } from "../harness/hook-process.ts";
import { type RelayProcess, startRelay } from "../harness/relay-process.ts";

// A browser paired in the quick start's way (the relay on 127.0.0.1 serves the web app, the link is `ringback pair`'s)
// when its relay goes away: stopped, or started again on the same data at another address, as `start --lan` does.
// The page still opens (the service worker's copy of the app), says which relay it cannot reach, since when and how
// to join again, stops saying it once the relay answers, and joins at the new address through its own action.
let directory: TemporaryDirectory;
let home: string;
let relayData: string;
let relay: RelayProcess;
let daemon: DaemonProcess;
let chromium: ChromiumHandle;
let browser: Device;

function banner(): Locator {
  return browser.page.getByTestId("relay-unreachable");
}

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  home = join(directory.path, "home");
  relayData = join(directory.path, "relay");
  relay = await startRelay({ dataDir: relayData });
  await runRingback(home, ["login", "--server", relay.url, "--name", "This computer"]);
  daemon = await startDaemon({ home });
  chromium = await launchChromium();
  browser = await Device.join(chromium.browser, "this computer's browser", (await daemon.pair()).link);
  // The app opens without its relay only from the service worker's copy: wait until it is in place.
  await browser.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
});

afterAll(async () => {
  await browser?.[Symbol.asyncDispose]();
  await chromium?.[Symbol.asyncDispose]();
  await daemon?.stop();
  await relay?.stop();
  await directory?.remove();
});

describe("a paired browser whose relay went away", () => {
  it("opens while its relay is stopped and says at once which relay it cannot reach, since when, and what to do", async () => {
    expect(await banner().count()).toBe(0);
    await relay.stop();
    await browser.page.reload();
    await banner().waitFor({ timeout: UI_WAIT_MS });
    expect(await banner().getAttribute("data-relay")).toBe(relay.url);
    const said = (await banner().textContent()) ?? "";
    expect(said).toMatch(
      new RegExp(
        `cannot reach its relay at ${relay.url.replaceAll(".", "\\.")} \\(trying since [^)]*\\d:\\d\\d:\\d\\d[^)]*\\)\\.`,
      ),
    );
    for (const step of ["start --lan", "ringback pair", "Settings › Devices › Add a device"])
      expect(said).toContain(step);
    await browser.page
      .locator('[data-testid="connection-status"][data-state="offline"]')
      .waitFor({ timeout: UI_WAIT_MS });
    // On every page, with the way to join again.
    for (const page of ["calls", "dispatch", "settings", "home"]) {
      await browser.page.getByTestId(`nav-${page}`).click();
      await banner().getByTestId("rejoin").waitFor({ timeout: UI_WAIT_MS });
    }
    expect(browser.pageErrors).toEqual([]);
  });

  it("stops saying it as soon as the relay answers again", async () => {
    relay = await startRelay({ dataDir: relayData, port: relay.port });
    await banner().waitFor({ state: "detached", timeout: UI_WAIT_MS });
    await browser.waitForStream();
  });

  it("after the relay moved to another address, joins there with a new pairing link from its action, and rings", async () => {
    const before = relay.url;
    await daemon.stop();
    await relay.stop();
    // `start --lan` in small: the same data and account, served at another address, the computer pointed there.
    relay = await startRelay({ dataDir: relayData });
    expect(relay.url).not.toBe(before);
    daemon = await startDaemon({ home, env: { RINGBACK_SERVER_URL: relay.url } });

    await browser.page.reload();
    await banner().waitFor({ timeout: UI_WAIT_MS });
    expect(await banner().getAttribute("data-relay")).toBe(before);
    await banner().getByTestId("rejoin").click();
    const rejoin = browser.page.getByTestId("rejoin-screen");
    await rejoin.waitFor({ timeout: UI_WAIT_MS });
    expect(await rejoin.textContent()).toContain(before);
    // Not a link: the link's own problem is said, and nothing is opened.
    await browser.page.getByTestId("rejoin-link-input").fill(before);
    await browser.page.getByTestId("rejoin-open").click();
    await browser.page.getByTestId("rejoin-error").waitFor({ timeout: UI_WAIT_MS });

    const { link } = await daemon.pair();
    expect(link.startsWith(`${relay.url}/#`)).toBe(true);
    await browser.page.getByTestId("rejoin-link-input").fill(link);
    await browser.page.getByTestId("rejoin-open").click();
    // The app at the new address, opened from the link: the usual join.
    const welcome = browser.page.locator('[data-testid="welcome-screen"][data-opened-from="link"]');
    await welcome.waitFor({ timeout: UI_WAIT_MS });
    expect(new URL(browser.page.url()).origin).toBe(relay.url);
    await browser.page.getByTestId("join-with-link").click();
    await browser.page.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
    await browser.waitForStream();
    expect(await banner().count()).toBe(0);

    const hook = await runHook(
      "claude-code",
      claudeStopPayload("Moved and ringing.", { cwd: directory.path }),
      {
        home,
      },
    );
    expect(hook.stderr).toMatch(/took the report \(202\)/);
    await browser.waitForRinging();
    expect(browser.pageErrors).toEqual([]);
  });
});
