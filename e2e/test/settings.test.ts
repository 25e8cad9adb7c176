import { BriefLanguage, Presence } from "@ringback/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_TEXTS } from "../../packages/client/src/i18n/texts/settings.ts";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { type Device, UI_WAIT_MS } from "../harness/device.ts";
import { claudePermissionPayload, runHook } from "../harness/hook-process.ts";
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

// A ring mode marked "Away from my computers in these hours", made on the phone, reaches the real daemon through the
// relay; an agent asking permission in those hours rings the phone, and Allow there lets it go on.
async function daemonPresence(): Promise<Presence> {
  const response = await callDaemon(system.daemon, "GET", "/presence");
  expect(response.status).toBe(200);
  return Presence.parse(await response.json());
}

/** The computer's presence once it says `away` as expected (the phone's request travels through the relay). */
async function presenceBecomes(away: boolean): Promise<Presence> {
  await expect.poll(async () => (await daemonPresence()).away, { timeout: UI_WAIT_MS }).toBe(away);
  return daemonPresence();
}

describe("Settings › Ringing: a ring mode's away hours", () => {
  it("set the computer away through the relay, so an ask then rings the phone; turned off, it is present again", async () => {
    // Present by default: no mode sets away hours yet.
    expect(await daemonPresence()).toMatchObject({ away: false, changedAt: null });
    // Fresh from the home page: the report-language test above left Settings open on its section.
    await phone.reload();
    await phone.waitForStream();
    const page = phone.page;
    // A mode that rings only from 5 minutes ago to an hour from now, on the phone's own clock and time zone.
    const [start, end] = await page.evaluate(() => {
      const clock = (minutes: number) => new Date(Date.now() + minutes * 60_000).toTimeString().slice(0, 5);
      return [clock(-5), clock(60)];
    });
    await page.getByTestId("nav-settings").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("settings-section-ringing").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("add-mode").click({ timeout: UI_WAIT_MS });
    const editor = page.getByTestId("mode-editor");
    await editor.getByTestId("mode-name").fill("Commute");
    await editor.getByTestId("mode-rule").selectOption("ring-only-in");
    await editor.getByTestId("range-start-0").fill(start as string);
    await editor.getByTestId("range-end-0").fill(end as string);
    await editor.getByTestId("mode-away").check();
    await editor.getByTestId("save-mode").click();

    const away = await presenceBecomes(true);
    expect(away).toMatchObject({
      away: true,
      changedBy: 'the ring mode "Commute"',
      changedByMode: "Commute",
    });
    expect(away.schedule).toMatchObject({
      setBy: "a paired device",
      periods: [{ modeName: "Commute", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start, end }] }],
    });
    await phone.screenshot("settings-ring-mode-away", { fullPage: true });

    const hook = runHook(
      "claude-code",
      claudePermissionPayload("npm publish", {
        cwd: system.projectDir,
        sessionId: "eead218f-5de1-445c-84d8-43153ec621cb",
        promptId: "006d0bdf-eebc-43fd-a195-27cf0f8b3eca",
      }),
      {
        home: system.home,
        cwd: system.projectDir,
      },
    );
    const eventId = await phone.waitForRinging();
    await phone.answer(eventId);
    await phone.inCallScreen(eventId).getByTestId("allow-button").click();
    const result = await hook;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });

    await phone.hangUp(eventId);
    await page.getByTestId("nav-settings").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("settings-section-ringing").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="mode-row"]', { hasText: "Commute" })
      .getByTestId("mode-toggle")
      .uncheck();
    expect(await presenceBecomes(false)).toMatchObject({ away: false, schedule: null });
    expect(phone.pageErrors).toEqual([]);
  });
});
