import {
  deriveKeyFromPassphrase,
  type E2eKey,
  generateKey,
  openDeviceName,
  sealDeviceName,
} from "@ringback/e2e-crypto";
import type { DeviceInfo } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, DIST, type FileBrowser, openPage } from "./built-app.js";
import { type DeviceNamesRelay, NAMES_ACCOUNT_ID, startDeviceNamesRelay } from "./device-names-relay.js";
import { openSettingsSection } from "./settings-sections.js";

const PHRASE = "correct horse battery staple";
const NEW_PHRASE = "a different phrase entirely";
/** Distinctive, and not ASCII: it must reach no request body in plaintext. */
const NAME = "Zoë's browser ✨ names test";
const PHONE_NAME = "Pixel of Zoë";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };

function device(id: string, name: string, kind: DeviceInfo["kind"]): DeviceInfo {
  const createdAt = new Date(1_000).toISOString();
  return { id, name, kind, createdAt, lastSeenAt: null, online: false, isCurrent: false };
}

describe("device names in the built web app in Chromium", () => {
  let relay: DeviceNamesRelay;
  let browser: FileBrowser;
  let page: Page;
  let key: E2eKey;
  const pageErrors: string[] = [];

  const listedNames = async () => {
    await openSettingsSection(page, "devices", WAIT);
    await expect.poll(() => page.getByTestId("device-row").count(), WAIT).toBe(4);
    return page.getByTestId("device-name").allTextContents();
  };

  beforeAll(async () => {
    key = await deriveKeyFromPassphrase(PHRASE, NAMES_ACCOUNT_ID);
    relay = await startDeviceNamesRelay(DIST, [
      device("dev_phone", await sealDeviceName(key, PHONE_NAME), "phone"),
      device("dev_computer", await sealDeviceName(generateKey(), "Hidden workstation"), "computer"),
      device("dev_tablet", "Old tablet", "browser"),
    ]);
    browser = await chromiumForFile();
    page = await openPage(browser, { locale: "en-GB", timezoneId: "UTC" }, pageErrors);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("creates an account as the device's kind, then sets its name sealed under the new key", async () => {
    await page.goto(relay.origin);
    await page.getByTestId("welcome-device-name").fill(NAME);
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").click();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    // The phrase key exists only once the account does: the page joined as "browser" and sealed its name after.
    expect(relay.createdWith()).toBe("browser");
    await expect.poll(() => relay.renames.length, WAIT).toBe(1);
    expect(await openDeviceName(key, relay.renames[0]!)).toBe(NAME);
    for (const body of relay.bodies)
      for (const word of ["Zoë", "names test"]) expect(body).not.toContain(word);
  });

  it("lists every device by its name as the page reads it: opened, as it is, or by its kind", async () => {
    expect(await listedNames()).toEqual([`${NAME} (this device)`, PHONE_NAME, "a computer", "Old tablet"]);
    expect(await page.getByTestId("devices-settings").textContent()).not.toContain("e2e1.");
    await page.getByTestId("devices-settings").screenshot({ path: `${ARTIFACTS}devices-names.png` });
  });

  it("seals its name again under the key of a new encryption phrase", async () => {
    await openSettingsSection(page, "computer", WAIT);
    await page.getByTestId("encryption-phrase").fill(NEW_PHRASE);
    await page.getByTestId("change-key").click();
    await page.getByTestId("key-check").waitFor(WAIT);
    await expect.poll(() => relay.renames.length, WAIT).toBe(2);
    const newKey = await deriveKeyFromPassphrase(NEW_PHRASE, NAMES_ACCOUNT_ID);
    expect(await openDeviceName(newKey, relay.renames[1]!)).toBe(NAME);
    // The phone's name is sealed under the old key: this device now names it by its kind.
    expect(await listedNames()).toEqual([`${NAME} (this device)`, "a phone", "a computer", "Old tablet"]);
    for (const body of relay.bodies)
      for (const word of ["Zoë", "names test"]) expect(body).not.toContain(word);
    expect(pageErrors).toEqual([]);
  });
});
