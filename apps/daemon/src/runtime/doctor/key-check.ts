import { keyId, parseKey } from "@ringback/e2e-crypto";
import type { DaemonConfig } from "@ringback/protocol";
import type { LastSealedMessage } from "../keys/last-sealed-message.js";
import { type DoctorCheck, fail, ok } from "./doctor-check.js";

const SAME_PASSPHRASE =
  "set the same passphrase in the app's Settings › Encryption and on this computer: ringback key";
const KIND_NAMES = { "settings-request": "a settings request", reply: "a reply" } as const;

/**
 * The end-to-end key in daemon.json, by its id only, against the key id named by the last sealed message a device
 * sent (a relayed settings request or a reply; the id is in plaintext in every sealed string). A device with
 * another key cannot open the calls, and the computer cannot open what it sends.
 */
export async function checkKey(
  config: DaemonConfig | null,
  lastSealedMessage: LastSealedMessage | null,
): Promise<DoctorCheck> {
  const text = config?.e2e?.key;
  if (!text)
    return fail(
      "key",
      "no end-to-end key yet: the daemon creates one at its first run",
      "ringback run (or ringback key)",
    );
  let id: string;
  try {
    id = await keyId(parseKey(text));
  } catch (error) {
    return fail(
      "key",
      `the end-to-end key in daemon.json is not usable: ${error instanceof Error ? error.message : String(error)}`,
      "ringback key (the same passphrase as the app's Settings › Encryption)",
    );
  }
  const source = config?.e2e?.source ?? "generated";
  const details = {
    keyId: id,
    source: config?.e2e?.source ?? null,
    devicesKeyId:
      lastSealedMessage?.keyId ??
      "not known yet: no device has sent this computer a sealed settings request or reply",
    lastSealedMessage,
  };
  if (!lastSealedMessage)
    return ok(
      "key",
      `end-to-end key ${id} (${source}); devices check theirs in Settings › Encryption`,
      details,
    );
  const message = `${KIND_NAMES[lastSealedMessage.kind]}, ${readableTime(lastSealedMessage.receivedAt)}`;
  if (lastSealedMessage.keyId === id)
    return ok(
      "key",
      `end-to-end key ${id} (${source}); the devices' last sealed message (${message}) used the same key`,
      details,
    );
  return fail(
    "key",
    `the devices' last sealed message (${message}) used key ${lastSealedMessage.keyId}, this computer's is ${id} ` +
      `(${source}): neither can open what the other seals`,
    SAME_PASSPHRASE,
    details,
  );
}

/** `2026-05-04 09:12:30 UTC`; the text as stored when it is not a time. */
function readableTime(isoTime: string): string {
  const time = new Date(isoTime);
  if (Number.isNaN(time.getTime())) return isoTime;
  return `${time.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
