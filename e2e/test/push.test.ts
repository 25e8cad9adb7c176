import { DeviceCredentials, PushMessage } from "@ringback/protocol";
import {
  eventually,
  type ReceivedPush,
  startTestPushService,
  type TestPushService,
  type TestSubscription,
} from "@ringback/test-kit";
import { callNotificationTag, eventIdOfTag } from "@ringback/web-client/notification-tag";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import { PUSH_REPEAT_CHOICES_SECONDS, PUSH_TEXTS } from "../../packages/client/src/push/push-texts.ts";
import { IDENTITY_KEY, RING_MODES_KEY } from "../../packages/client/src/storage/storage-keys.ts";
import { type Device, UI_WAIT_CHECKS, UI_WAIT_MS } from "../harness/device.ts";
import { DeviceServiceWorker, type ShownNotification } from "../harness/device-service-worker.ts";
import { readDeviceValue, writeDeviceValue } from "../harness/device-storage.ts";
import { turnPushOn } from "../harness/push-settings.ts";
import { relayPushSubscription } from "../harness/push-subscription.ts";
import { NEVER_RING_MODE } from "../harness/ring-modes.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";

const texts = CORE_TEXTS.en;
const LONGEST_REPEAT_SECONDS = Math.max(...PUSH_REPEAT_CHOICES_SECONDS);
// The real relay pushes to the project's test push service (HTTPS on 127.0.0.1, VAPID checked, RFC 8291 payloads
// decrypted with the subscription's own key). The phone's page subscribes at that service, injected where the
// browser's PushManager would reach Google's (harness/injected-push-service.ts). The phone's app page is closed; its browser context (with the service worker) stays, and
// the decrypted payload is delivered to the worker as Chromium delivers a push, through the DevTools protocol.
let pushService: TestPushService;
let system: RingbackSystem;
let phone: Device;
let laptop: Device;
let phoneWorker: DeviceServiceWorker;
let subscription: TestSubscription;
/** The phone's token: a failed wait asks the relay what the phone's worker would have been told. */
let phoneToken: string;
/** Uncaught errors in the phone's app tabs opened below. */
const phoneAppErrors: string[] = [];

beforeAll(async () => {
  pushService = await startTestPushService();
  system = await startSystem({
    relay: {
      args: ["--push-trusted-origins", pushService.origin],
      env: { NODE_EXTRA_CA_CERTS: pushService.certificatePath },
    },
  });
  phone = await system.addDevice("phone");
  laptop = await system.addDevice("laptop");
  await phone.context.grantPermissions(["notifications"], { origin: system.relay.url });
  const identity = DeviceCredentials.parse(await readDeviceValue(phone.page, IDENTITY_KEY));
  phoneToken = identity.deviceToken;
  // The person turns ringing-when-closed on in Settings: the page subscribes with the relay's key and registers the
  // subscription at the relay, ringing again at the longest interval offered, so each test reads its call's first push.
  subscription = await turnPushOn(phone, pushService, system.relay.url);
  const pushSettings = phone.page.getByTestId("push-settings");
  expect(await pushSettings.getByTestId("push-status").textContent()).toBe(PUSH_TEXTS.en.on);
  await pushSettings.getByTestId("push-repeat").selectOption(String(LONGEST_REPEAT_SECONDS));
  await eventually(
    async () =>
      (await relayPushSubscription(system.relay.url, phoneToken)).repeatSeconds === LONGEST_REPEAT_SECONDS,
    { what: "the phone's repeat at the relay", checks: UI_WAIT_CHECKS },
  );
  expect(await relayPushSubscription(system.relay.url, phoneToken)).toMatchObject({
    subscribed: true,
    endpoint: subscription.endpoint,
  });
  phoneWorker = await DeviceServiceWorker.attach(phone.context, system.relay.url, UI_WAIT_CHECKS);
  // The app is closed; the browser (a blank tab) and the app's service worker registration stay.
  await phone.page.close();
});

afterAll(async () => {
  await phoneWorker?.[Symbol.asyncDispose]();
  await system?.[Symbol.asyncDispose]();
  await pushService?.close();
});

/** The push the relay sent to the phone for `eventId` (its ringing push, or `call-settled`), decrypted. */
async function pushedTo(eventId: string, type: PushMessage["type"] = "call"): Promise<ReceivedPush> {
  const push = await pushService.waitFor(
    (received) =>
      received.find((candidate) => {
        if (candidate.subscriptionId !== subscription.id || candidate.status >= 300) return false;
        const message = PushMessage.safeParse(JSON.parse(candidate.payload ?? "null"));
        return message.success && message.data.eventId === eventId && message.data.type === type;
      }),
    `the phone's ${type} push of ${eventId}`,
    UI_WAIT_CHECKS,
  );
  expect(push.problem).toBeNull();
  return push;
}

/** Waits until the phone's worker shows `expected` for the call's tag; a failure says what the worker was doing. */
async function expectShown(
  tag: string,
  expected: unknown[],
  pick = (shown: ShownNotification) => shown as unknown,
) {
  try {
    await expect
      .poll(async () => (await phoneWorker.notifications(tag)).map(pick), { timeout: UI_WAIT_MS })
      .toEqual(expected);
  } catch (error) {
    const eventId = eventIdOfTag(tag) ?? "";
    const relay = await fetch(`${system.relay.url}/v1/calls/${encodeURIComponent(eventId)}`, {
      headers: { authorization: `Bearer ${phoneToken}` },
    })
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
        return `HTTP ${response.status}, call status ${String(body?.status)}`;
      })
      .catch((failure: unknown) => String(failure));
    const worker = await phoneWorker.diagnosis();
    throw new Error(`${String(error)}\nthe phone's service worker:\n${worker}\nthe relay's call: ${relay}`, {
      cause: error,
    });
  }
}

async function pushedPayload(eventId: string): Promise<string> {
  return (await pushedTo(eventId)).payload ?? "";
}

/** Opens the web app in a new tab of the phone, at `hash` (as the service worker's `openWindow` would). */
async function openPhoneApp(hash = ""): Promise<Page> {
  const page = await phone.context.newPage();
  page.on("pageerror", (error) => phoneAppErrors.push(String(error)));
  await page.goto(`${system.relay.url}/${hash}`);
  return page;
}

describe("Web Push rings a device whose app is closed", () => {
  it("pushes no readable words (the call rides sealed); the worker shows the brief's first sentence; the click answers the call", async () => {
    const report = "Migrated the billing tables to the new schema. All 48 tests pass.";
    await system.agentFinishes(report);
    const eventId = await laptop.waitForRinging();

    const payload = await pushedPayload(eventId);
    expect(PushMessage.parse(JSON.parse(payload))).toMatchObject({
      type: "call",
      eventId,
      attempt: 1,
      sealed: expect.stringMatching(/^e2e1\./),
    });
    // Neither the report nor the brief (the fake model's brief is made of the report's sentences) is in it.
    for (const words of ["billing", "schema", "48 tests", "Migrated"]) expect(payload).not.toContain(words);

    await phoneWorker.deliverPush(payload, eventId, UI_WAIT_CHECKS);
    const tag = callNotificationTag(eventId);
    await expectShown(tag, [
      {
        title: "Migrated the billing tables to the new schema.",
        body: "Migrated the billing tables to the new schema.",
        tag,
        silent: false,
        requireInteraction: true,
      },
    ]);

    // The click, as the worker handles it with no window of the app open: the notification closes and the app
    // opens at `#call=<eventId>`. (A synthetic notificationclick may not open windows, so the test opens it.)
    expect(
      await phoneWorker.closeNotifications(tag),
      "the click closes the notification it was made on",
    ).toBe(1);
    const app = await openPhoneApp(`#call=${encodeURIComponent(eventId)}`);
    const inCall = app.locator(`[data-testid="in-call-screen"][data-event-id="${eventId}"]`);
    await inCall.waitFor({ timeout: UI_WAIT_MS });
    expect(await inCall.getByTestId("original-report").textContent()).toContain(report);
    await laptop.waitForNoRinging();
    await laptop.openCalls();
    expect(await laptop.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);
    // Every device sees how far the call got on each: the relay's push, each ring, the phone opening and answering.
    const trail = laptop.page
      .locator(`[data-testid="history-row"][data-event-id="${eventId}"]`)
      .getByTestId("delivery-trail");
    const time = String.raw`\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?`;
    // The trail is in time order and its first step is capitalised; which step comes first is a race (a busy machine
    // shows the call on the laptop before the push service has answered the relay), so each step is compared from a
    // lower-case first letter.
    await expect
      .poll(
        async () =>
          ((await trail.textContent()) ?? "")
            .split(" · ")
            .map((step) => step.replace(new RegExp(time), "<t>"))
            .map((step) => step.charAt(0).toLowerCase() + step.slice(1)),
        {
          timeout: UI_WAIT_MS,
        },
      )
      .toEqual(
        expect.arrayContaining([
          "pushed to phone <t>",
          "shown on phone <t>",
          "shown on laptop <t>",
          "opened on phone <t>",
          "answered on phone <t>",
        ]),
      );

    await inCall.getByTestId("hang-up-button").click();
    await inCall.waitFor({ state: "detached", timeout: UI_WAIT_MS });
    await app.close();
  });

  it("closes the notification once another device answered, with the relay's settled push, the app still closed", async () => {
    await laptop.page.getByTestId("nav-home").click();
    await system.agentFinishes("Rotated the staging certificates. Nothing else changed.");
    const eventId = await laptop.waitForRinging();
    const ringing = await pushedTo(eventId);
    await phoneWorker.deliverPush(ringing.payload ?? "", eventId, UI_WAIT_CHECKS);
    const tag = callNotificationTag(eventId);
    await expectShown(tag, ["Rotated the staging certificates."], (shown) => shown.body);

    await laptop.answer(eventId);
    // The relay tells the phone the call stopped ringing, under the call's topic (it would replace the ringing push
    // at a push service that still held it); the worker closes the notification without the app.
    const settled = await pushedTo(eventId, "call-settled");
    expect(JSON.parse(settled.payload ?? "")).toEqual({ type: "call-settled", eventId, status: "answered" });
    expect(settled).toMatchObject({ topic: ringing.topic, urgency: "normal" });
    await phoneWorker.deliverPush(settled.payload ?? "", eventId, UI_WAIT_CHECKS);
    await expectShown(tag, []);
    expect(phone.context.pages().filter((page) => page.url().startsWith(system.relay.url))).toEqual([]);

    // When the app next opens, it learns of the answer from its stream and shows the call answered elsewhere.
    const app = await openPhoneApp();
    await app.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
    await app.getByTestId("nav-calls").click();
    const status = app
      .locator(`[data-testid="history-row"][data-event-id="${eventId}"]`)
      .getByTestId("history-status");
    await status.waitFor({ timeout: UI_WAIT_MS });
    expect(await status.textContent()).toBe(texts.outcomeAnsweredElsewhere);
    expect(await app.getByTestId("ringing-screen").count()).toBe(0);

    await laptop.hangUp(eventId);
    await app.close();
    expect([...phone.pageErrors, ...phoneAppErrors, ...laptop.pageErrors]).toEqual([]);
  });

  it("makes a push that arrives while the phone's ring modes forbid ringing a silent missed call, missed in the app", async () => {
    // Settings › Ring modes keeps the modes in the device's storage; the app is closed again before the report.
    const settings = await openPhoneApp();
    await settings.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
    await writeDeviceValue(settings, RING_MODES_KEY, [NEVER_RING_MODE]);
    await settings.close();

    await system.agentFinishes("Cleaned up the old feature flags. The build is green.");
    const eventId = await laptop.waitForRinging();
    await phoneWorker.deliverPush(await pushedPayload(eventId), eventId, UI_WAIT_CHECKS);
    const tag = callNotificationTag(eventId);
    await expectShown(tag, [
      {
        title: "Missed call: Cleaned up the old feature flags.",
        body: "Cleaned up the old feature flags.",
        tag,
        silent: true,
        requireInteraction: false,
      },
    ]);

    const app = await openPhoneApp();
    await app.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
    await app.getByTestId("nav-calls").click();
    await app
      .locator(`[data-testid="missed-row"][data-event-id="${eventId}"]`)
      .waitFor({ timeout: UI_WAIT_MS });
    expect(await app.getByTestId("ringing-screen").count()).toBe(0);

    // Rejected on the laptop: the open app learns it from its stream and the missed-call notification goes too.
    await laptop.reject(eventId);
    await expectShown(tag, []);
    await app.close();
    expect([...phoneAppErrors, ...laptop.pageErrors]).toEqual([]);
    expect(phoneWorker.errors, "the service worker threw nothing").toEqual([]);
  });
});
