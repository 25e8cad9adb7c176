import { join } from "node:path";
import { DeviceCredentials } from "@ringback/protocol";
import {
  eventually,
  freePort,
  makeTemporaryDirectory,
  startTestPushService,
  type TemporaryDirectory,
  type TestPushService,
} from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_KEY } from "../../packages/client/src/storage/storage-keys.ts";
import { type CaddyFront, startCaddy } from "../harness/caddy.ts";
import type { ChromiumHandle } from "../harness/chromium.ts";
import { type DaemonProcess, runRingback, startDaemon } from "../harness/daemon-process.ts";
import { Device, UI_WAIT_CHECKS } from "../harness/device.ts";
import { readDeviceValue } from "../harness/device-storage.ts";
import { claudeStopPayload, runHook } from "../harness/hook-process.ts";
import { turnPushOn } from "../harness/push-settings.ts";
import { relayPushSubscription } from "../harness/push-subscription.ts";
import { type RelayProcess, startRelay } from "../harness/relay-process.ts";
import { launchTrustingChromium } from "../harness/trusting-chromium.ts";

/** A name that is not loopback: the phone reaches the relay by it, as by a server's name on the internet. */
const HOST = "ringback.test";

// The relay deployed as its README says: behind Caddy (automatic HTTPS, here with Caddy's internal CA), with its
// public address. The computer reaches it through Caddy at 127.0.0.1 (trusting the CA as Node does with
// NODE_EXTRA_CA_CERTS); the phone, a Chromium that trusts the CA in its NSS database, at https://ringback.test.
let directory: TemporaryDirectory;
let pushService: TestPushService;
let caddy: CaddyFront;
let relay: RelayProcess;
let daemon: DaemonProcess;
let chromium: ChromiumHandle;
let phone: Device;
let publicUrl: string;
let home: string;

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  pushService = await startTestPushService();
  const relayPort = await freePort();
  caddy = await startCaddy({
    directory: join(directory.path, "caddy"),
    names: [HOST, "127.0.0.1"],
    upstream: `127.0.0.1:${relayPort}`,
  });
  publicUrl = `https://${HOST}:${caddy.httpsPort}`;
  relay = await startRelay({
    dataDir: join(directory.path, "relay"),
    port: relayPort,
    args: ["--public-url", publicUrl, "--behind-proxy", "--push-trusted-origins", pushService.origin],
    env: { NODE_EXTRA_CA_CERTS: pushService.certificatePath },
  });
  home = join(directory.path, "home");
  const trustCaddy = { NODE_EXTRA_CA_CERTS: caddy.rootCertificatePath };
  await runRingback(home, ["login", "--server", `https://127.0.0.1:${caddy.httpsPort}`, "--name", "desk"], {
    env: trustCaddy,
  });
  daemon = await startDaemon({ home, env: trustCaddy });
  chromium = await launchTrustingChromium({
    home: join(directory.path, "browser-home"),
    hostName: HOST,
    caCertificatePath: caddy.rootCertificatePath,
  });
}, 90_000);

afterAll(async () => {
  await phone?.[Symbol.asyncDispose]();
  await chromium?.[Symbol.asyncDispose]();
  await daemon?.stop();
  await relay?.stop();
  await caddy?.[Symbol.asyncDispose]();
  await pushService?.close();
  await directory?.remove();
});

describe("a relay behind Caddy with automatic HTTPS, reached by a phone at its public name", () => {
  it("pairs by a link to the public https address, into a secure context", async () => {
    expect(relay.stdout()).toContain(`ringback relay public address ${publicUrl}`);
    const pairing = await daemon.pair();
    expect(pairing.serverUrl).toBe(publicUrl);
    expect(pairing.link.startsWith(`${publicUrl}/`)).toBe(true);
    phone = await Device.join(chromium.browser, "phone", pairing.link);
    expect(await phone.page.evaluate(() => [window.isSecureContext, location.origin])).toEqual([
      true,
      publicUrl,
    ]);
    const identity = DeviceCredentials.parse(await readDeviceValue(phone.page, IDENTITY_KEY));
    expect(identity.deviceId).not.toBe("");
  });

  it("rings the phone for a report from the real hook, carried through Caddy both ways", async () => {
    const text = "Done: the certificate renewal job runs nightly now. All 33 tests pass.";
    const hook = await runHook("claude-code", claudeStopPayload(text, { cwd: directory.path }), { home });
    expect(hook.stderr).toMatch(/took the report \(202\)/);
    const eventId = await phone.waitForRinging();
    await phone.answer(eventId);
    expect(await phone.inCallScreen(eventId).getByTestId("original-report").textContent()).toContain(text);
    await phone.hangUp(eventId);
    expect(phone.pageErrors).toEqual([]);
  });

  it("subscribes to Web Push from the secure origin", async () => {
    await phone.context.grantPermissions(["notifications"], { origin: publicUrl });
    const subscription = await turnPushOn(phone, pushService, relay.url);
    const { deviceToken } = DeviceCredentials.parse(await readDeviceValue(phone.page, IDENTITY_KEY));
    await eventually(async () => (await relayPushSubscription(relay.url, deviceToken)).subscribed === true, {
      what: "the phone's push subscription at the relay",
      checks: UI_WAIT_CHECKS,
    });
    expect(await relayPushSubscription(relay.url, deviceToken)).toMatchObject({
      endpoint: subscription.endpoint,
    });
  });
});
