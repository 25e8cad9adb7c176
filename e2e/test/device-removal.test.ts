import { type CallRecord, needsYouAsk, sealPermissionDecision } from "@ringback/client";
import { keyId, parseKey } from "@ringback/e2e-crypto";
import { DeviceCredentials, E2eKeyRecord } from "@ringback/protocol";
import { expect, it } from "vitest";
import { E2E_KEY_KEY, IDENTITY_KEY } from "../../packages/client/src/storage/storage-keys.ts";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { type Device, UI_WAIT_CHECKS, UI_WAIT_MS } from "../harness/device.ts";
import { readDeviceValue } from "../harness/device-storage.ts";
import { claudePermissionPayload, runHook } from "../harness/hook-process.ts";
import { startSystem } from "../harness/system.ts";

/**
 * Settings › Devices on `device`: removes the device named `name`, confirming, waits until it is no longer listed, and
 * returns what the section says then.
 */
async function removeDevice(device: Device, name: string): Promise<string> {
  const page = device.page;
  await page.getByTestId("nav-settings").click({ timeout: UI_WAIT_MS });
  await page.getByTestId("settings-section-devices").click({ timeout: UI_WAIT_MS });
  const row = page.locator('[data-testid="device-row"]', { hasText: name });
  page.once("dialog", (dialog) => void dialog.accept());
  await row.locator("button.remove").click({ timeout: UI_WAIT_MS });
  await row.waitFor({ state: "detached", timeout: UI_WAIT_MS });
  return (await page.getByTestId("key-replaced").allTextContents()).join("");
}

async function daemonKeyId(daemon: { url: string; localKey: string }): Promise<string> {
  return E2eKeyRecord.parse(await (await callDaemon(daemon, "GET", "/e2e/key")).json()).keyId;
}

// The finding (issue #34 item 2): removing a device revoked its relay token but left it the account's key, so an
// Allow it sealed was taken by the computer if it reached it by any path. Removing a device now replaces the key.
it("a removed device's Allow, sealed with the key it kept, is refused; the remaining devices still ring and decide", async () => {
  await using system = await startSystem();
  const phone = await system.addDevice("phone");
  const laptop = await system.addDevice("laptop");
  const tablet = await system.addDevice("old tablet");
  const oldKey = parseKey(String(await readDeviceValue(tablet.page, E2E_KEY_KEY)));
  const laptopIdentity = DeviceCredentials.parse(await readDeviceValue(laptop.page, IDENTITY_KEY));
  expect(await daemonKeyId(system.daemon)).toBe(await keyId(oldKey));
  // Away from the computer: an agent's permission ask rings the devices.
  expect((await callDaemon(system.daemon, "PUT", "/presence", { away: true })).status).toBe(200);

  // The phone removes the tablet, which is out at once.
  const saidOnRemoval = await removeDevice(phone, "old tablet");
  await tablet.page.getByTestId("welcome-screen").waitFor({ timeout: UI_WAIT_MS });

  // An agent asks permission: both remaining devices ring.
  const hook = runHook("claude-code", claudePermissionPayload("rm -rf build", { cwd: system.projectDir }), {
    home: system.home,
    cwd: system.projectDir,
  });
  const eventId = await phone.waitForRinging();
  expect(await laptop.waitForRinging(eventId)).toBe(eventId);

  // The tablet's Allow: everything right (the ask, its tool input's digest, a fresh stamp) but sealed under the key
  // it kept; handed to the relay with a live token (a hostile relay or a colluding device would do the same).
  const record = (await phone.storedCall(eventId)) as CallRecord;
  const ask = needsYouAsk(record);
  if (!ask || !record.fromDeviceId) throw new Error("the phone's record of the ask has no ask or computer");
  const replyId = "removed-tablet-allow";
  const forged = await sealPermissionDecision(oldKey, {
    computerId: record.fromDeviceId,
    eventId,
    replyId,
    toolInputDigest: ask.toolInputDigest,
    verdict: "allow",
    reason: null,
  });
  const delivered = await fetch(`${system.relay.url}/v1/calls/${encodeURIComponent(eventId)}/replies`, {
    method: "POST",
    headers: { authorization: `Bearer ${laptopIdentity.deviceToken}`, "content-type": "application/json" },
    body: JSON.stringify(forged),
  });
  expect(delivered.status).toBe(202);
  const refused = `decision ${replyId} for ${eventId} refused`;
  const taken = `(decision ${replyId})`;
  await system.daemon.waitFor(
    () => system.daemon.stderr().includes(refused) || system.daemon.stderr().includes(taken),
    "the daemon settling the removed device's Allow",
    UI_WAIT_CHECKS,
  );
  expect(system.daemon.stderr()).not.toContain(taken);
  expect(system.daemon.stderr()).toContain(refused);
  expect(await Promise.race([hook.then(() => "answered"), Promise.resolve("still waiting")])).toBe(
    "still waiting",
  );

  // Why: the removal replaced the key, on the phone, on the computer at once, and on the laptop when it met it.
  expect(saidOnRemoval).toContain("replaced on this device and the computers");
  const newKeyId = await daemonKeyId(system.daemon);
  expect(newKeyId).not.toBe(await keyId(oldKey));
  expect(system.daemon.stderr()).toContain("end-to-end key rotated");
  for (const device of [phone, laptop]) {
    const held = parseKey(String(await readDeviceValue(device.page, E2E_KEY_KEY)));
    expect(await keyId(held), device.name).toBe(newKeyId);
  }

  // The laptop, which followed the rotation, decides: its Allow reaches the hook.
  await laptop.answer(eventId);
  await laptop.inCallScreen(eventId).getByTestId("allow-button").click();
  const result = await hook;
  expect(JSON.parse(result.stdout)).toEqual({
    hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
  });
  for (const device of [phone, laptop]) expect(device.pageErrors).toEqual([]);
});

it("a computer that was off while a device was removed moves to the new key when it starts; the calls still open", async () => {
  await using system = await startSystem();
  const phone = await system.addDevice("phone");
  const tablet = await system.addDevice("old tablet");
  const oldKey = parseKey(String(await readDeviceValue(tablet.page, E2E_KEY_KEY)));

  let saidOnRemoval = "";
  await system.restartDaemon("SIGTERM", async () => {
    saidOnRemoval = await removeDevice(phone, "old tablet");
  });
  expect(saidOnRemoval).toContain("1 computer that is off will take it when it connects");
  const phoneKeyId = await keyId(parseKey(String(await readDeviceValue(phone.page, E2E_KEY_KEY))));
  expect(phoneKeyId).not.toBe(await keyId(oldKey));
  await expect.poll(() => daemonKeyId(system.daemon), { timeout: UI_WAIT_MS }).toBe(phoneKeyId);

  await system.agentFinishes("Done: the removed tablet no longer reads this.");
  const eventId = await phone.waitForRinging();
  await phone.answer(eventId);
  await phone.hangUp(eventId);
  expect(phone.pageErrors).toEqual([]);
});
