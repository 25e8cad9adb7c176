import { keyId, parseKey } from "@ringback/e2e-crypto";
import type { DaemonConfig } from "@ringback/protocol";
import { type DoctorCheck, fail, ok } from "./doctor-check.js";

/**
 * The end-to-end key in daemon.json, by its id only. Devices do not report their key id to the computer, so a
 * device with another key shows as "cannot open" on the device itself (Settings › Encryption checks it).
 */
export async function checkKey(config: DaemonConfig | null): Promise<DoctorCheck> {
  const text = config?.e2e?.key;
  if (!text)
    return fail(
      "key",
      "no end-to-end key yet: the daemon creates one at its first run",
      "ringback run (or ringback key)",
    );
  try {
    const id = await keyId(parseKey(text));
    return ok(
      "key",
      `end-to-end key ${id} (${config?.e2e?.source ?? "generated"}); devices check theirs in Settings › Encryption`,
      {
        keyId: id,
        source: config?.e2e?.source ?? null,
        devicesKeyId: "not known: devices do not report theirs to the computer",
      },
    );
  } catch (error) {
    return fail(
      "key",
      `the end-to-end key in daemon.json is not usable: ${error instanceof Error ? error.message : String(error)}`,
      "ringback key (the same passphrase as the app's Settings › Encryption)",
    );
  }
}
