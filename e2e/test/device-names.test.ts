import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { joinWithCode, joinWithLink, RelayClient, readDeviceList } from "@ringback/client";
import { deriveKeyFromPassphrase, openDeviceName } from "@ringback/e2e-crypto";
import { expect, it } from "vitest";
import { readDaemonConfigKey } from "../harness/daemon-files.ts";
import { runRingback } from "../harness/daemon-process.ts";
import { UI_WAIT_MS } from "../harness/device.ts";
import { filesHolding, readRelayDataFiles } from "../harness/relay-data-files.ts";
import { startSystem } from "../harness/system.ts";

const PHRASE = "correct horse battery staple";

/** Names no relay could guess, so finding one in its files or log can only mean it was stored in the clear. */
const distinctive = (who: string) => `Zoë's ${who} ${randomUUID().slice(0, 8)}`;

// The finding (issue #24 item 10): the relay stored and listed every device's name in plaintext. Every client path
// that names a device runs here for real (`ringback login`, the web app's link join in Chromium, the client library's
// link and code joins, `ringback key`), then the relay's database files and log are searched for the names.
it("keeps every device's name from the relay: none in its database files or its log, each readable with the key", async () => {
  const names = {
    computer: distinctive("workstation"),
    phone: distinctive("phone in Chromium"),
    linkClient: distinctive("terminal (link)"),
    codeClient: distinctive("tablet (code)"),
  };
  await using system = await startSystem({ computerName: names.computer });
  const phone = await system.addDevice(names.phone);
  const linked = await joinWithLink((await system.daemon.pair()).link, {
    deviceName: names.linkClient,
    deviceKind: "phone",
  });
  const linkRelay = new RelayClient({
    serverUrl: system.relay.url,
    deviceToken: linked.identity.deviceToken,
  });

  // A call rings the phone; the phone's delivery records, and the terminal's, copy the names as the relay has them.
  await system.agentFinishes("All 214 tests pass.");
  const eventId = await phone.waitForRinging();
  const shown = await linkRelay.reportDelivery(eventId, "shown");
  await phone.answer(eventId);
  await phone.hangUp(eventId);

  // The computer moves to a passphrase key and seals its name again under it; a tablet joins with a code and the
  // phrase: it has no key until the relay answers, so it sends its kind first, then its sealed name.
  await runRingback(system.home, ["key", "--passphrase-stdin"], { stdin: `${PHRASE}\n` });
  const coded = await joinWithCode(
    { serverUrl: system.relay.url, code: (await system.daemon.pair()).code, phrase: PHRASE },
    { deviceName: names.codeClient, deviceKind: "browser" },
  );
  const listed = (
    await new RelayClient({
      serverUrl: system.relay.url,
      deviceToken: coded.identity.deviceToken,
    }).listDevices()
  ).devices;

  // What the relay holds and logs: not one name, in any of the forms a name could take there.
  const files = await readRelayDataFiles(join(system.directory.path, "relay"));
  for (const name of Object.values(names)) {
    const distinctivePart = name.slice(-8);
    for (const form of [name, name.normalize("NFD"), distinctivePart]) {
      expect(filesHolding(files, form), `${form} in the relay's files`).toEqual([]);
      expect(system.relay.stderr(), `${form} in the relay's log`).not.toContain(form);
    }
  }
  // The scan sees what the relay holds: every listed name's ciphertext is in its files.
  for (const device of listed) expect(filesHolding(files, device.name), device.id).not.toEqual([]);

  // Each device reads the names with its key: the computer's and the tablet's under the new key, the phone's and
  // the terminal's under the old one (the others' read as null, which screens show as the device's kind).
  expect(coded.key).toBe(await deriveKeyFromPassphrase(PHRASE, coded.identity.accountId));
  expect(await readDaemonConfigKey(system.home)).toBe(coded.key);
  expect((await readDeviceList(coded.key, listed)).map((device) => device.name)).toEqual([
    names.computer,
    null,
    null,
    names.codeClient,
  ]);
  expect((await readDeviceList(linked.key, listed)).map((device) => device.name)).toEqual([
    null,
    names.phone,
    names.linkClient,
    null,
  ]);
  expect(await openDeviceName(linked.key, shown.deviceName)).toBe(names.linkClient);
  // The phone shows the names in its history, read with its key.
  await phone.openCalls();
  await expect
    .poll(() => phone.historyRow(eventId).getByTestId("delivery-trail").textContent(), {
      timeout: UI_WAIT_MS,
    })
    .toMatch(new RegExp(`shown on ${escaped(names.linkClient)}.*answered on ${escaped(names.phone)}`, "i"));
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
