import { BriefLanguage } from "@ringback/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_TEXTS } from "../../packages/client/src/i18n/texts/settings.ts";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { type Device, UI_WAIT_MS } from "../harness/device.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";

// Settings the app keeps on the computer travel through the relay as sealed requests to the daemon.
const texts = SETTINGS_TEXTS.en;
let system: RingbackSystem;
let phone: Device;

beforeAll(async () => {
  system = await startSystem();
  phone = await system.addDevice("phone");
});

afterAll(async () => {
  await system?.[Symbol.asyncDispose]();
});

async function daemonBriefLanguage(): Promise<BriefLanguage> {
  const response = await callDaemon(system.daemon, "GET", "/brief/language");
  expect(response.status).toBe(200);
  return BriefLanguage.parse(await response.json());
}

describe("Settings › Report language", () => {
  it("reaches the daemon through the relay, which writes the next brief in it", async () => {
    // A device that joins sends the language it reads reports in (its browser's, en-US), so start from that.
    expect((await daemonBriefLanguage()).language).toBe("en-US");
    const page = phone.page;
    await page.getByTestId("nav-settings").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("settings-screen").waitFor({ timeout: UI_WAIT_MS });
    await page.getByTestId("settings-section-language-voice").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("report-language").selectOption("de-DE", { timeout: UI_WAIT_MS });

    const status = page.locator('[data-testid="brief-language-status"][data-status="saved"]');
    await status.waitFor({ timeout: UI_WAIT_MS });
    expect(await status.textContent()).toBe(texts.briefLanguageSaved);
    expect(await daemonBriefLanguage()).toEqual({ language: "de-DE", source: "app" });
    await phone.screenshot("settings-report-language", { fullPage: true });

    // The next report's brief is asked for in that language.
    const before = system.model?.chatRequests().length ?? 0;
    await system.agentFinishes("Upgraded the payment SDK to version 5; the checkout tests pass.");
    await phone.waitForRinging();
    const prompts = (system.model?.chatRequests() ?? [])
      .slice(before)
      .map((request) => JSON.stringify(request.body));
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((prompt) => prompt.includes("(de-DE)"))).toBe(true);
    expect(phone.pageErrors).toEqual([]);
  });
});
