import type { PushLogEntry, RingMode } from "@ringback/client";
import {
  callRecordKey,
  INTERFACE_LANGUAGE_KEY,
  LAST_EVENT_ID_KEY,
  PUSH_LOG_KEY,
  RING_MODES_KEY,
  SET_ASIDE_IDS_KEY,
} from "@ringback/client";
import { aad, deriveKeyFromPassphrase, type E2eKey, generateKey, sealJson } from "@ringback/e2e-crypto";
import type { DeclarativePushMessage, PushCallMessage, PushMessage, RelayedEvent } from "@ringback/protocol";
import type { BrowserContext, CDPSession, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RING_VIBRATION_PATTERN_MS } from "../src/sw/call-notification.js";
import { chromiumForFile, DIST, type FileBrowser } from "./built-app.js";
import { payloadFor } from "./fixtures.js";
import { type PushStandInRelay, startPushStandInRelay } from "./push-stand-in-relay.js";
import { openSettingsSection } from "./settings-sections.js";
import { TEST_ACCOUNT_ID } from "./test-relay-server.js";

const PHRASE = "push phrase for the service worker";
/** On every day, and forbids ringing all day (a range whose start equals its end is the whole day). */
const NEVER_RING_MODE: RingMode = {
  id: "never-ring",
  name: "Never ring",
  preset: null,
  ranges: [{ start: "00:00", end: "00:00" }],
  repeat: [0, 1, 2, 3, 4, 5, 6],
  rule: "do-not-ring-in",
  on: true,
  away: false,
};

interface ShownNotification {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
}

/** What Chromium shows of a call's notification besides its text (the WebWorker types leave some out). */
interface NotificationDetails extends ShownNotification {
  readonly silent: boolean | null;
  readonly requireInteraction: boolean;
  readonly actions: { action: string; title: string }[];
  readonly vibrate: number[];
}

describe("the service worker rings a pushed call in Chromium", () => {
  let relay: PushStandInRelay;
  let browser: FileBrowser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let registrationId: string;

  beforeAll(async () => {
    relay = await startPushStandInRelay(DIST);
    browser = await chromiumForFile();
    context = await browser.newContext({ permissions: ["notifications"] });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    const registered = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
        const active = versions.find((version) => version.status === "activated");
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await page.goto(relay.origin);
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").click();
    await page.getByTestId("idle-screen").waitFor();
    registrationId = await registered;
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  /**
   * Delivers a push and resolves once the worker has handled it (a new outcome for the call in its push log). Only
   * then are notifications read: Chromium drops from `getNotifications()` a notification it is asked about while it
   * is still being shown.
   */
  async function deliver(message: PushMessage, payload: unknown = message): Promise<void> {
    const outcomes = async () =>
      (((await deviceValue(PUSH_LOG_KEY)) as PushLogEntry[] | undefined) ?? []).filter(
        (entry) => entry.eventId === message.eventId && entry.step !== "received",
      ).length;
    const before = await outcomes();
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: relay.origin,
      registrationId,
      data: JSON.stringify(payload),
    });
    await expect.poll(outcomes, { timeout: 20_000 }).toBeGreaterThan(before);
  }

  /** Writes or reads one value of the device's storage (idb-keyval's default database, as the app keeps it). */
  function deviceValue(key: string, value?: unknown): Promise<unknown> {
    return page.evaluate(
      ({ key, value, isWrite }) =>
        new Promise<unknown>((resolve, reject) => {
          const opening = indexedDB.open("keyval-store");
          opening.onupgradeneeded = () => opening.result.createObjectStore("keyval");
          opening.onerror = () => reject(opening.error);
          opening.onsuccess = () => {
            const connection = opening.result;
            const store = connection.transaction("keyval", "readwrite").objectStore("keyval");
            const request = isWrite ? store.put(value, key) : store.get(key);
            request.onsuccess = () => {
              connection.close();
              resolve(isWrite ? undefined : request.result);
            };
            request.onerror = () => reject(request.error);
          };
        }),
      { key, value, isWrite: value !== undefined },
    );
  }

  const notifications = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map(
        (notification): ShownNotification => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
        }),
      );
    });

  function message(eventId: string): PushCallMessage {
    const now = new Date().toISOString();
    return {
      type: "call",
      eventId,
      seq: 1,
      source: "claude-code",
      occurredAt: now,
      receivedAt: now,
      taskId: null,
      fromDeviceId: "dev_computer",
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      attempt: 1,
    };
  }

  /** The notifications of one call, with their actions, vibration and ringing flags. */
  const callNotifications = (eventId: string) =>
    page.evaluate(async (tag) => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications({ tag })).map((shown): NotificationDetails => {
        const extra = shown as unknown as {
          actions: readonly { action: string; title: string }[];
          vibrate: readonly number[];
        };
        return {
          title: shown.title,
          body: shown.body,
          tag: shown.tag,
          silent: shown.silent,
          requireInteraction: shown.requireInteraction,
          actions: extra.actions.map(({ action, title }) => ({ action, title })),
          vibrate: [...extra.vibrate],
        };
      });
    }, `ringback-call-${eventId}`);

  /** A call the relay holds, sealed with the account's key; `projectName` makes it a tracker call of that project. */
  async function pendingCall(
    eventId: string,
    seq: number,
    brief: { title: string; spoken: string },
    projectName?: string,
  ): Promise<RelayedEvent> {
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const occurredAt = new Date().toISOString();
    const payload = payloadFor({ eventId, occurredAt, brief, projectName });
    const call: RelayedEvent = {
      seq,
      eventId,
      source: payload.report.source,
      occurredAt,
      receivedAt: occurredAt,
      taskId: null,
      fromDeviceId: "dev_computer",
      sealed: await sealJson(key, aad.report(eventId), payload),
      status: "pending",
    };
    relay.calls.set(eventId, call);
    return call;
  }

  /** The app's service worker as it runs now (a worker stopped meanwhile runs again for a push). */
  async function runningWorker(): Promise<Worker> {
    const running = context.serviceWorkers().find((worker) => worker.url().startsWith(relay.origin));
    return running ?? context.waitForEvent("serviceworker");
  }

  /**
   * A click on a call's notification (`action`: "answer", "later", or "" for the notification itself), dispatched
   * in the worker as the browser would. Resolves once what the worker waits for settled: the reasons of what failed.
   */
  async function clickNotification(eventId: string, action: string): Promise<string[]> {
    const worker = await runningWorker();
    return worker.evaluate(
      async ({ tag, action }) => {
        const scope = self as unknown as {
          registration: ServiceWorkerRegistration;
          NotificationEvent: new (
            type: string,
            init: { notification: Notification; action: string },
          ) => Event;
        };
        const [notification] = await scope.registration.getNotifications({ tag });
        if (!notification) throw new Error(`no notification ${tag} to click`);
        const event = new scope.NotificationEvent("notificationclick", { notification, action });
        // Chromium refuses waitUntil on an event a script made: the test collects what the worker waits for.
        const waited: Promise<unknown>[] = [];
        Object.defineProperty(event, "waitUntil", {
          value: (promise: Promise<unknown>) => waited.push(promise),
        });
        self.dispatchEvent(event);
        const settled = await Promise.allSettled(waited);
        return settled.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
      },
      { tag: `ringback-call-${eventId}`, action },
    );
  }

  const deliveriesOf = (eventId: string) =>
    relay.deliveries.filter((delivery) => delivery.eventId === eventId);

  it("fetches the sealed call with the device's token, opens it with the key in IndexedDB, and shows the brief's first sentence", async () => {
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const occurredAt = new Date().toISOString();
    const payload = payloadFor({
      eventId: "e-push",
      occurredAt,
      brief: { title: "Invoice rounding", spoken: "The invoice rounding is fixed. All tests pass." },
    });
    const call: RelayedEvent = {
      seq: 1,
      eventId: "e-push",
      source: "claude-code",
      occurredAt,
      receivedAt: occurredAt,
      taskId: null,
      fromDeviceId: "dev_computer",
      sealed: await sealJson(key, aad.report("e-push"), payload),
      status: "pending",
    };
    relay.calls.set("e-push", call);
    await deliver(message("e-push"));
    await expect.poll(notifications, { timeout: 20_000 }).toContainEqual({
      title: "Invoice rounding",
      body: "The invoice rounding is fixed.",
      tag: "ringback-call-e-push",
    });
    expect(relay.callReads).toContainEqual({
      eventId: "e-push",
      authorization: `Bearer ${relay.credentials.deviceToken}`,
    });
  });

  it("replaces the call's notification when the same call is pushed again", async () => {
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const first = relay.calls.get("e-push");
    if (!first) throw new Error("the first test's call is missing");
    const payload = payloadFor({
      eventId: "e-push",
      occurredAt: first.occurredAt,
      brief: { title: "Invoice rounding, still ringing", spoken: "Still waiting for you. Tests pass." },
    });
    relay.calls.set("e-push", { ...first, sealed: await sealJson(key, aad.report("e-push"), payload) });
    await deliver({ ...message("e-push"), attempt: 2 });
    await expect.poll(notifications, { timeout: 20_000 }).toEqual([
      {
        title: "Invoice rounding, still ringing",
        body: "Still waiting for you.",
        tag: "ringback-call-e-push",
      },
    ]);
  });

  it("takes the call's notification away when a push finds the call ended", async () => {
    relay.calls.delete("e-push");
    await deliver({ ...message("e-push"), attempt: 3 });
    await expect.poll(notifications, { timeout: 20_000 }).toEqual([]);
    expect(relay.callReads.filter((read) => read.eventId === "e-push")).toHaveLength(3);
  });

  it("closes the call's notification on a call-settled push, without asking the relay and showing nothing else", async () => {
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const occurredAt = new Date().toISOString();
    const payload = payloadFor({
      eventId: "e-settled",
      occurredAt,
      brief: { title: "Cache warm-up", spoken: "The cache warms up at start. Tests pass." },
    });
    // Still pending at the relay: only the settled push can close the notification.
    relay.calls.set("e-settled", {
      seq: 2,
      eventId: "e-settled",
      source: "claude-code",
      occurredAt,
      receivedAt: occurredAt,
      taskId: null,
      fromDeviceId: "dev_computer",
      sealed: await sealJson(key, aad.report("e-settled"), payload),
      status: "pending",
    });
    await deliver({ ...message("e-settled"), seq: 2 });
    await expect
      .poll(notifications, { timeout: 20_000 })
      .toEqual([
        { title: "Cache warm-up", body: "The cache warms up at start.", tag: "ringback-call-e-settled" },
      ]);
    const reads = () => relay.callReads.filter((read) => read.eventId === "e-settled").length;
    expect(reads()).toBe(1);
    await deliver({ type: "call-settled", eventId: "e-settled", status: "answered" });
    await expect.poll(notifications, { timeout: 20_000 }).toEqual([]);
    expect(reads()).toBe(1);
    relay.calls.delete("e-settled");
  });

  /** The relay's declarative push of a call carried sealed (`sealed`), in its content-free words. */
  function declarativePush(call: PushCallMessage, title = "A call from Ringback"): DeclarativePushMessage {
    return {
      web_push: 8030,
      notification: {
        title,
        body: "Open Ringback to hear it.",
        navigate: `${relay.origin}/#call=${call.eventId}`,
        tag: `ringback-call-${call.eventId}`,
        silent: false,
        requireInteraction: true,
        data: call,
      },
      mutable: true,
    };
  }

  /**
   * Safari's `pushnotification` event for a declarative push, dispatched in the worker as the browser would (Chromium
   * has no Declarative Web Push): resolves once what the worker waits for settled, with the reasons of what failed.
   */
  async function proposeNotification(push: DeclarativePushMessage): Promise<string[]> {
    const worker = await runningWorker();
    return worker.evaluate(async (proposed) => {
      const scope = self as unknown as { ExtendableEvent: new (type: string) => Event };
      const event = new scope.ExtendableEvent("pushnotification");
      const waited: Promise<unknown>[] = [];
      // Chromium refuses waitUntil on an event a script made: the test collects what the worker waits for.
      Object.defineProperty(event, "waitUntil", {
        value: (promise: Promise<unknown>) => waited.push(promise),
      });
      Object.defineProperty(event, "proposedNotification", { value: proposed });
      self.dispatchEvent(event);
      const settled = await Promise.allSettled(waited);
      return settled.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    }, push.notification);
  }

  /** A call sealed with the account's key (or `key`), carried in the push itself; the relay does not hold it. */
  async function carriedCall(
    eventId: string,
    title: string,
    spoken: string,
    key?: E2eKey,
  ): Promise<PushCallMessage> {
    const sealWith = key ?? (await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID));
    const payload = payloadFor({ eventId, occurredAt: new Date().toISOString(), brief: { title, spoken } });
    return { ...message(eventId), sealed: await sealJson(sealWith, aad.report(eventId), payload) };
  }

  it("opens the call a declarative push carries sealed, in the push event, and shows its title without asking the relay", async () => {
    const call = await carriedCall(
      "e-carried",
      "Flaky test fixed",
      "The flaky login test is fixed. CI is green.",
    );
    await deliver(call, declarativePush(call));
    await expect.poll(notifications, { timeout: 20_000 }).toContainEqual({
      title: "Flaky test fixed",
      body: "The flaky login test is fixed.",
      tag: "ringback-call-e-carried",
    });
    expect(relay.callReads.filter((read) => read.eventId === "e-carried")).toEqual([]);
    await deliver({ type: "call-settled", eventId: "e-carried", status: "answered" });
    await expect.poll(() => callNotifications("e-carried"), { timeout: 20_000 }).toEqual([]);
  });

  it("shows the opened call in place of the declarative push's content-free one in Safari's pushnotification event", async () => {
    const call = await carriedCall(
      "needs_e-proposed",
      "Run the migration?",
      "Claude wants to run the migration.",
    );
    expect(await proposeNotification(declarativePush(call, "An agent needs you"))).toEqual([]);
    await expect.poll(notifications, { timeout: 20_000 }).toContainEqual({
      title: "Run the migration?",
      body: "Claude wants to run the migration.",
      tag: "ringback-call-needs_e-proposed",
    });
    await deliver({ type: "call-settled", eventId: "needs_e-proposed", status: "ended" });
    await expect.poll(() => callNotifications("needs_e-proposed"), { timeout: 20_000 }).toEqual([]);
  });

  it("lets the content-free notification stand where the worker cannot open the call (sealed with another key)", async () => {
    const call = await carriedCall("e-unread", "Secret title", "Secret words.", generateKey());
    expect(await proposeNotification(declarativePush(call))).toEqual([]);
    await expect
      .poll(() => callNotifications("e-unread"), { timeout: 20_000 })
      .toMatchObject([{ title: "A call from Ringback", body: "Open Ringback to hear it.", silent: false }]);
    await deliver({ type: "call-settled", eventId: "e-unread", status: "answered" });
    await expect.poll(() => callNotifications("e-unread"), { timeout: 20_000 }).toEqual([]);
  });

  it("makes a push that arrives while the ring modes forbid ringing a silent missed call, still missed when the app opens", async () => {
    await deviceValue(RING_MODES_KEY, [NEVER_RING_MODE]);
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    const occurredAt = new Date().toISOString();
    const payload = payloadFor({
      eventId: "e-quiet",
      occurredAt,
      brief: { title: "Nightly export", spoken: "The nightly export finished. Nothing failed." },
    });
    const call: RelayedEvent = {
      seq: 7,
      eventId: "e-quiet",
      source: "claude-code",
      occurredAt,
      receivedAt: occurredAt,
      taskId: null,
      fromDeviceId: "dev_computer",
      sealed: await sealJson(key, aad.report("e-quiet"), payload),
      status: "pending",
    };
    relay.calls.set("e-quiet", call);
    await deliver({ ...message("e-quiet"), seq: 7 });
    const missedNotice = async () =>
      (
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications({ tag: "ringback-call-e-quiet" })).map((shown) => ({
            title: shown.title,
            body: shown.body,
            silent: shown.silent,
            requireInteraction: shown.requireInteraction,
          }));
        })
      )[0];
    await expect.poll(missedNotice, { timeout: 20_000 }).toEqual({
      title: "Missed call: Nightly export",
      body: "The nightly export finished.",
      silent: true,
      requireInteraction: false,
    });
    // Neither answered from the notice nor felt: no actions, no vibration. It was shown all the same.
    expect(await callNotifications("e-quiet")).toMatchObject([{ actions: [], vibrate: [] }]);
    await expect
      .poll(() => deliveriesOf("e-quiet"), { timeout: 20_000 })
      .toEqual([
        { eventId: "e-quiet", outcome: "shown", authorization: `Bearer ${relay.credentials.deviceToken}` },
      ]);
    expect(await deviceValue(callRecordKey("e-quiet"))).toMatchObject({
      status: { state: "missed", missedReason: "outside-ringing-period" },
    });

    // Ringing is allowed again and the relay replays the pending call when the app opens: it stays missed.
    await deviceValue(RING_MODES_KEY, []);
    relay.replayed.push(call);
    const connectsBefore = relay.streamConnects();
    await page.reload();
    await page.getByTestId("idle-screen").waitFor();
    await expect.poll(() => relay.streamConnects(), { timeout: 20_000 }).toBeGreaterThan(connectsBefore);
    // The page has handled the replayed call (and the `synced` after it) once it stored the stream position.
    await expect.poll(() => deviceValue(LAST_EVENT_ID_KEY), { timeout: 20_000 }).toBe("7");
    await page.getByTestId("nav-calls").click();
    await page.locator('[data-testid="missed-row"][data-event-id="e-quiet"]').waitFor();
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);
    expect(await deviceValue(callRecordKey("e-quiet"))).toMatchObject({ status: { state: "missed" } });
    relay.replayed.length = 0;
  });

  it("titles the missed call in the device's interface language, the brief's own title and sentence untranslated", async () => {
    await deviceValue(RING_MODES_KEY, [NEVER_RING_MODE]);
    await deviceValue(INTERFACE_LANGUAGE_KEY, "zh");
    try {
      const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
      const occurredAt = new Date().toISOString();
      const payload = payloadFor({
        eventId: "e-quiet-zh",
        occurredAt,
        brief: { title: "Weekly digest", spoken: "The weekly digest went out. Two links were fixed." },
      });
      relay.calls.set("e-quiet-zh", {
        seq: 8,
        eventId: "e-quiet-zh",
        source: "claude-code",
        occurredAt,
        receivedAt: occurredAt,
        taskId: null,
        fromDeviceId: "dev_computer",
        sealed: await sealJson(key, aad.report("e-quiet-zh"), payload),
        status: "pending",
      });
      await deliver({ ...message("e-quiet-zh"), seq: 8 });
      const shown = async () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications({ tag: "ringback-call-e-quiet-zh" })).map((notice) => ({
            title: notice.title,
            body: notice.body,
            silent: notice.silent,
          }));
        });
      await expect
        .poll(shown, { timeout: 20_000 })
        .toEqual([{ title: "未接来电：Weekly digest", body: "The weekly digest went out.", silent: true }]);
    } finally {
      await deviceValue(INTERFACE_LANGUAGE_KEY, "system");
      await deviceValue(RING_MODES_KEY, []);
      relay.calls.delete("e-quiet-zh");
    }
  });

  it("rings a tracker call under its project, with Answer, Later and a vibration, and tells the relay it was shown", async () => {
    await pendingCall(
      "e-ring",
      9,
      { title: "Invoice export", spoken: "The invoice export is twice as fast. Tests pass." },
      "Billing",
    );
    await deliver({ ...message("e-ring"), seq: 9 });
    await expect
      .poll(() => callNotifications("e-ring"), { timeout: 20_000 })
      .toEqual([
        {
          title: "Billing · Invoice export",
          body: "The invoice export is twice as fast.",
          tag: "ringback-call-e-ring",
          silent: false,
          requireInteraction: true,
          actions: [
            { action: "answer", title: "Answer" },
            { action: "later", title: "Later" },
          ],
          vibrate: [...RING_VIBRATION_PATTERN_MS],
        },
      ]);
    await expect
      .poll(() => deliveriesOf("e-ring"), { timeout: 20_000 })
      .toEqual([
        { eventId: "e-ring", outcome: "shown", authorization: `Bearer ${relay.credentials.deviceToken}` },
      ]);
  });

  it("Answer closes the notification, hands the call to the open app, and tells the relay it was opened", async () => {
    await page.evaluate(() => {
      const opened: unknown[] = [];
      (window as unknown as { openedByWorker: unknown[] }).openedByWorker = opened;
      navigator.serviceWorker.addEventListener("message", (event) => opened.push(event.data));
    });
    // The only failure allowed: a click a script made may not bring the window forward.
    const failures = await clickNotification("e-ring", "answer");
    expect(
      failures.every((failure) => failure.includes("focus")),
      failures.join("; "),
    ).toBe(true);
    expect(await callNotifications("e-ring")).toEqual([]);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { openedByWorker: unknown[] }).openedByWorker))
      .toEqual([{ type: "ringback-open-call", eventId: "e-ring" }]);
    await expect
      .poll(() => deliveriesOf("e-ring").map((delivery) => delivery.outcome), { timeout: 20_000 })
      .toEqual(["shown", "opened"]);
    relay.calls.delete("e-ring");
  });

  it("Later closes the notification and stops the call ringing here, telling the relay nothing", async () => {
    await pendingCall(
      "e-later",
      10,
      { title: "Cache warm-up", spoken: "The cache now warms up at start. Nothing failed." },
      "Platform",
    );
    await deliver({ ...message("e-later"), seq: 10 });
    await expect
      .poll(async () => (await callNotifications("e-later")).map((shown) => shown.requireInteraction), {
        timeout: 20_000,
      })
      .toEqual([true]);
    await expect.poll(() => deliveriesOf("e-later").length, { timeout: 20_000 }).toBe(1);
    const requestsBefore = relay.requests.length;
    await page.evaluate(() => {
      const told: unknown[] = [];
      (window as unknown as { toldByWorker: unknown[] }).toldByWorker = told;
      navigator.serviceWorker.addEventListener("message", (event) => told.push(event.data));
    });

    expect(await clickNotification("e-later", "later")).toEqual([]);
    expect(await callNotifications("e-later")).toEqual([]);
    // The open app is told, so it stops ringing the call too (and its next save keeps it missed).
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { toldByWorker: unknown[] }).toldByWorker))
      .toEqual([{ type: "ringback-call-set-aside", eventId: "e-later" }]);
    expect(await deviceValue(callRecordKey("e-later"))).toMatchObject({
      status: { state: "missed", missedReason: "set-aside" },
    });
    expect(await deviceValue(SET_ASIDE_IDS_KEY)).toEqual(["e-later"]);
    // It read the call to store it as missed; no status, no delivery outcome: the other devices keep ringing.
    const aboutTheCall = relay.requests
      .slice(requestsBefore)
      .filter((request) => request.path.startsWith("/v1/calls/e-later"));
    expect(aboutTheCall).toEqual([{ method: "GET", path: "/v1/calls/e-later" }]);

    // The relay pushes the call again, still ringing elsewhere: here it is a silent missed call.
    await deliver({ ...message("e-later"), seq: 10, attempt: 2 });
    await expect
      .poll(() => callNotifications("e-later"), { timeout: 20_000 })
      .toEqual([
        {
          title: "Missed call: Platform · Cache warm-up",
          body: "The cache now warms up at start.",
          tag: "ringback-call-e-later",
          silent: true,
          requireInteraction: false,
          actions: [],
          vibrate: [],
        },
      ]);
    expect(relay.requests.some((request) => request.path === "/v1/calls/e-later/status")).toBe(false);
    relay.calls.delete("e-later");
  });

  it("offers the setting, off until this browser subscribes", async () => {
    await openSettingsSection(page, "ringing");
    await page.getByTestId("push-settings").waitFor();
    expect(await page.getByTestId("push-status").textContent()).toBe("Off");
    // Subscribing would reach the browser vendor's push service, which this loopback-only test does not.
    expect(await page.getByTestId("push-on").isVisible()).toBe(true);
    // What the worker did with this file's pushes, newest first: the last, the "Later" call's repeat, came silent.
    await page.getByTestId("push-log").locator("summary").click();
    const steps = await page.getByTestId("push-log-entry").allTextContents();
    expect(steps[0]).toMatch(/shown as a missed call \(no ring\)$/);
    expect(steps.some((step) => step.endsWith("push received · Nightly export"))).toBe(true);
    expect(steps.filter((step) => step.includes("push received")).length).toBeGreaterThan(3);
    expect(steps.some((step) => step.includes("closed: answered or ended on another device"))).toBe(true);
  });
});
