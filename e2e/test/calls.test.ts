import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import { type Device, UI_WAIT_MS } from "../harness/device.ts";
import { NEVER_RING_MODE } from "../harness/ring-modes.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";

// What the calls page says, in the devices' interface language.
const texts = CORE_TEXTS.en;
// One system for the file (relay, daemon, fake model) and two devices on it, a phone and a laptop: every call
// below starts with a real agent turn (the hook) and ends before the next test, so the tests follow one another.
let system: RingbackSystem;
let phone: Device;
let laptop: Device;

beforeAll(async () => {
  system = await startSystem();
  phone = await system.addDevice("phone");
  laptop = await system.addDevice("laptop");
});

afterAll(async () => {
  await system?.[Symbol.asyncDispose]();
});

describe("a hook report calls every device of the account", () => {
  it("rings both; answering on one stops the other, whose history says it was answered on another device", async () => {
    const text =
      "I fixed the flaky login test: the session cookie expired during slow CI runs. All 214 tests pass now.";
    await system.agentFinishes(text);

    const eventId = await phone.waitForRinging();
    expect(await laptop.waitForRinging()).toBe(eventId);
    expect(await phone.ringingScreen(eventId).getByTestId("caller").textContent()).toBe("Claude Code");
    // The daemon wrote the brief with the configured model, from the report the hook sent.
    const prompts = system.model?.chatRequests().map((request) => JSON.stringify(request.body)) ?? [];
    expect(prompts.some((prompt) => prompt.includes("the session cookie expired"))).toBe(true);
    await phone.screenshot("ringing");

    await phone.answer(eventId);
    expect(await phone.inCallScreen(eventId).getByTestId("original-report").textContent()).toContain(text);
    await laptop.waitForNoRinging();
    await laptop.openCalls();
    expect(await laptop.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);
    expect(await laptop.missedRow(eventId).count()).toBe(0);
    await laptop.screenshot("calls-page", { fullPage: true });

    await phone.hangUp(eventId);
    await phone.openCalls();
    expect(await phone.historyStatus(eventId)).toBe(texts.outcomeAnswered);
    expect([...phone.pageErrors, ...laptop.pageErrors]).toEqual([]);
  });
});

describe("ring modes", () => {
  it("makes a report that arrives while ringing is not allowed a missed call there; it still rings elsewhere", async () => {
    await laptop.setRingModes([NEVER_RING_MODE]);
    await system.agentFinishes("Deployed the staging build; the smoke tests pass.");

    const eventId = await phone.waitForRinging();
    await laptop.openCalls();
    await laptop.missedRow(eventId).waitFor();
    expect(await laptop.ringTimes()).not.toHaveProperty(eventId);
    await laptop.screenshot("calls-page-missed", { fullPage: true });

    // Ringing is allowed again: the call stays missed and does not ring.
    await laptop.setRingModes([]);
    expect(await laptop.ringModes()).toEqual([]);
    await laptop.openCalls();
    await laptop.missedRow(eventId).waitFor();
    expect(await laptop.ringTimes()).not.toHaveProperty(eventId);

    // Acknowledge-all on the laptop ends the call on the phone too.
    await laptop.page.getByTestId("acknowledge-all").click();
    expect(await laptop.historyStatus(eventId)).toBe(texts.outcomeAcknowledged);
    await phone.waitForNoRinging();
    await phone.openCalls();
    expect(await phone.historyStatus(eventId)).toBe(texts.outcomeAcknowledgedElsewhere);
  });
});

describe("restarts", () => {
  it("makes an answered call interrupted by a reload a missed call that never rings again", async () => {
    await system.agentFinishes("Migrated the orders table; the backfill is still running.");
    const eventId = await phone.waitForRinging();
    await laptop.waitForRinging(eventId);
    await phone.answer(eventId);
    await laptop.waitForNoRinging();

    await phone.reload();
    expect(await phone.inCallScreen().count()).toBe(0);
    expect(await phone.ringTimes()).not.toHaveProperty(eventId);
    await phone.openCalls();
    await phone.missedRow(eventId).waitFor();

    // Even when the relay sends the whole stream again, the call does not ring: the next report rings instead.
    await phone.reloadReplayingStream();
    await system.agentFinishes("Added an index on orders.created_at.");
    const nextId = await phone.waitForRinging();
    expect(nextId).not.toBe(eventId);
    expect(Object.keys(await phone.ringTimes())).toEqual([nextId]);
    await phone.reject(nextId);
    await laptop.waitForNoRinging();
    await phone.openCalls();
    await phone.missedRow(eventId).waitFor();
  });

  it("makes a call reloaded while it rang a missed call there; another device can still answer it", async () => {
    await system.agentFinishes("Released version 2.4.0 to npm.");
    const eventId = await phone.waitForRinging();
    await laptop.waitForRinging(eventId);
    // The ring was shown and the device wrote that down before the restart.
    await expect
      .poll(
        async () =>
          ((await phone.storedCall(eventId)) as { status?: { shownAt?: unknown } })?.status?.shownAt,
        { timeout: UI_WAIT_MS },
      )
      .toEqual(expect.any(String));

    await phone.reload();
    expect(await phone.ringTimes()).not.toHaveProperty(eventId);
    await phone.openCalls();
    await phone.missedRow(eventId).waitFor();

    await laptop.answer(eventId);
    expect(await phone.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);
    expect(await phone.missedRow(eventId).count()).toBe(0);
    await laptop.hangUp(eventId);
    expect([...phone.pageErrors, ...laptop.pageErrors]).toEqual([]);
  });

  it("keeps calling both devices after the relay and the daemon restart", async () => {
    await system.restartRelay();
    await system.restartDaemon();
    await system.agentFinishes("Rotated the staging database password.");

    const eventId = await laptop.waitForRinging();
    expect(await phone.waitForRinging()).toBe(eventId);
    await laptop.answer(eventId);
    await phone.waitForNoRinging();
    await phone.openCalls();
    expect(await phone.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);
    await laptop.hangUp(eventId);
  });
});
