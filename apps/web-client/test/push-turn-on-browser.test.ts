import { createServer } from "node:http";
import type { PushSubscriptionRequest, PushSubscriptionState } from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUSH_SUBSCRIBE_TIME_LIMIT_MS } from "../src/app/push/push-subscriber.js";
import { ARTIFACTS, chromiumForFile, DIST, type FileBrowser } from "./built-app.js";
import { forwardRequest } from "./forward-request.js";
import { openSettingsSection } from "./settings-sections.js";
import { readBody } from "./stand-in-computer.js";
import { startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };

/** How the browser's push service behaves for the page: the test sets it before tapping Turn on. */
type PushServiceMode = "never-answers" | "refuses" | "answers";

/**
 * The browser's push service as the page meets it through `PushManager`: headless Chromium has none it can reach
 * from here, so the page's push manager is a stand-in that never answers (a network that blocks the service),
 * refuses as Chromium does, or subscribes, as `window.ringbackPushService` says.
 */
function installPushService(): void {
  type Held = PushSubscription | null;
  const state = window as unknown as { ringbackPushService?: string; ringbackHeld?: Held };
  PushManager.prototype.getSubscription = async () => state.ringbackHeld ?? null;
  PushManager.prototype.subscribe = (options?: PushSubscriptionOptionsInit) => {
    if (state.ringbackPushService === "refuses")
      return Promise.reject(new DOMException("Registration failed - push service error", "AbortError"));
    if (state.ringbackPushService !== "answers") return new Promise<PushSubscription>(() => undefined);
    const key = options?.applicationServerKey as Uint8Array;
    const endpoint = "https://push.example/subscription-1";
    const subscription = {
      endpoint,
      expirationTime: null,
      options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
      toJSON: () => ({
        endpoint,
        expirationTime: null,
        keys: { p256dh: `B${"Q".repeat(86)}`, auth: "S".repeat(22) },
      }),
      unsubscribe: async () => {
        state.ringbackHeld = null;
        return true;
      },
    } as unknown as PushSubscription;
    state.ringbackHeld = subscription;
    return Promise.resolve(subscription);
  };
}

/** The relay's push routes in front of the test relay: its VAPID key and this device's subscription. */
async function startPushRelay(upstreamOrigin: string) {
  const { subtle } = globalThis.crypto;
  const pair = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const publicKey = Buffer.from(await subtle.exportKey("raw", pair.publicKey)).toString("base64url");
  const registrations: PushSubscriptionRequest[] = [];
  const state = (): PushSubscriptionState => {
    const held = registrations.at(-1);
    return {
      deviceId: "dev_browser",
      subscribed: held !== undefined,
      endpoint: held?.endpoint ?? null,
      repeatSeconds: held?.repeatSeconds ?? null,
      updatedAt: held ? new Date().toISOString() : null,
    };
  };
  const upstream = new URL(upstreamOrigin);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (path === "/v1/push/public-key") return json(200, { publicKey });
    if (path === "/v1/push/subscription" && request.method === "PUT") {
      readBody(request)
        .then((text) => {
          registrations.push(JSON.parse(text) as PushSubscriptionRequest);
          json(200, state());
        })
        .catch(() => json(400, { error: { code: "invalid_request", message: "Not JSON." } }));
      return;
    }
    if (path === "/v1/push/subscription") return json(200, state());
    forwardRequest(request, response, upstream);
  });
  return { ...(await listenOnLoopback(server)), registrations };
}

function setPushService(page: Page, mode: PushServiceMode): Promise<void> {
  return page.evaluate((value) => {
    (window as unknown as { ringbackPushService: string }).ringbackPushService = value;
  }, mode);
}

describe("Settings › Ring when the app is closed › Turn on, in the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let front: Awaited<ReturnType<typeof startPushRelay>>;
  let browser: FileBrowser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    front = await startPushRelay(relay.origin);
    browser = await chromiumForFile();
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: "en-US",
    });
    await context.grantPermissions(["notifications"], { origin: front.origin });
    await context.addInitScript(installPushService);
    page = await context.newPage();
    page.setDefaultTimeout(WAIT.timeout);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    // The page's clock: time runs as usual until the test moves it past the time limit.
    await page.clock.install();
    await page.goto(front.origin);
    await page.getByTestId("new-account-phrase").fill(PHRASE);
    await page.getByTestId("create-account").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    // Pushes need the app's service worker: it registers at the first load.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await openSettingsSection(page, "ringing");
  });

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await relay?.close();
  });

  it("shows its progress while the browser's push service does not answer, then stops with why and what to do", async () => {
    await setPushService(page, "never-answers");
    const status = page.getByTestId("push-status");
    expect(await status.textContent()).toBe("Off");
    await page.getByTestId("push-on").tap();

    const progress = page.locator('[data-testid="push-progress"][data-step="subscribing"]');
    await progress.waitFor(WAIT);
    expect(await progress.textContent()).toBe("Subscribing with the browser's push service (at most 30 s)…");
    expect(await status.textContent()).toBe("Turning on…");
    expect(await page.getByTestId("push-on").isDisabled()).toBe(true);
    await page.getByTestId("push-settings").screenshot({ path: `${ARTIFACTS}push-turning-on.png` });

    await page.clock.fastForward(PUSH_SUBSCRIBE_TIME_LIMIT_MS);
    const problem = page.locator('[data-testid="push-problem"][data-kind="push-service-timeout"]');
    await problem.waitFor(WAIT);
    expect(await problem.textContent()).toBe(
      "Not turned on: the browser's push service did not answer within 30 s, so this device cannot ring while the app is closed. Check that it is online and that nothing blocks the browser's push service (a firewall, a VPN, a privacy setting or a content blocker), then tap Turn on again. Until then, calls ring while the app is open.",
    );
    await expect.poll(() => status.textContent(), WAIT).toBe("Off");
    expect(await page.getByTestId("push-progress").count()).toBe(0);
    expect(await page.getByTestId("push-on").isEnabled()).toBe(true);
    expect(front.registrations).toEqual([]);
    await page.getByTestId("push-settings").screenshot({ path: `${ARTIFACTS}push-timed-out.png` });
  });

  it("passes on a refusal of the push service in its own words", async () => {
    await setPushService(page, "refuses");
    await page.getByTestId("push-on").tap();
    const problem = page.locator('[data-testid="push-problem"][data-kind="push-service-refused"]');
    await problem.waitFor(WAIT);
    expect(await problem.textContent()).toContain(
      "the browser's push service refused (Registration failed - push service error)",
    );
    expect(front.registrations).toEqual([]);
  });

  it("turns on once the push service answers, registering the subscription at the relay", async () => {
    await setPushService(page, "answers");
    await page.getByTestId("push-on").tap();
    await page.locator('[data-testid="push-status"][data-state="on"]').waitFor(WAIT);
    expect(await page.getByTestId("push-status").textContent()).toBe("On");
    expect(await page.getByTestId("push-problem").count()).toBe(0);
    expect(front.registrations).toEqual([
      {
        endpoint: "https://push.example/subscription-1",
        expirationTime: null,
        keys: { p256dh: `B${"Q".repeat(86)}`, auth: "S".repeat(22) },
        repeatSeconds: 60,
      },
    ]);
    expect(pageErrors).toEqual([]);
  });
});
