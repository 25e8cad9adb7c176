import { followKeyRotations } from "@ringback/client";
import {
  deriveKeyFromPassphrase,
  type E2eKey,
  generateKey,
  isE2eError,
  keyId,
  parseKey,
} from "@ringback/e2e-crypto";
import {
  type E2eKeyRecord,
  type E2eKeySource,
  isPassphraseLongEnough,
  type KeyRotationApplied,
  type KeyRotationNotice,
  type PutE2eKeyRequest,
  type PutE2eKeyResponse,
  RingbackError,
} from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { type ComputerNameOptions, resealComputerName } from "../relay-link/computer-name.js";

/** `GET /e2e/key`: the key the desktop app decrypts calls with. */
export async function e2eKeyRecord(config: ConfigFile): Promise<E2eKeyRecord> {
  const e2e = requireE2e(config);
  return {
    key: e2e.key,
    keyId: await keyId(parseKey(e2e.key)),
    source: e2e.source,
    updatedAt: e2e.updatedAt ?? config.modifiedAtStart,
  };
}

/**
 * `PUT /e2e/key`: a passphrase (only the derived key is stored), an `rbk1_` key, or a new random key.
 * Unsent reports are sealed with the new key, since sealing happens at send time; this computer's name at the relay
 * is sealed again under it (`resealComputerName`).
 */
export async function replaceE2eKey(
  config: ConfigFile,
  request: PutE2eKeyRequest,
  now: Date,
  options: ComputerNameOptions = {},
): Promise<PutE2eKeyResponse> {
  return storeE2eKey(config, await newKey(request, config.config.relay?.accountId), now, options);
}

/**
 * Follows the account's key rotation notices from the current key (`followKeyRotations`): a computer that held the
 * key a removed device knew moves to the newest one, and from then on refuses anything sealed under the old. A notice
 * for another key (one this computer never held, or has left) changes nothing.
 */
export async function followE2eKeyRotations(
  config: ConfigFile,
  notices: readonly KeyRotationNotice[],
  now: Date,
  options: ComputerNameOptions = {},
): Promise<KeyRotationApplied> {
  const followed = await followKeyRotations(currentE2eKey(config), notices);
  if (followed.steps === 0) return { rotated: false, keyId: await keyId(currentE2eKey(config)) };
  const stored = await storeE2eKey(config, { key: followed.key, source: "random" }, now, options);
  options.log?.(
    `end-to-end key rotated (${followed.steps} rotation${followed.steps === 1 ? "" : "s"} after a device was removed): the old key is refused from now on`,
  );
  return { rotated: true, keyId: stored.keyId };
}

async function storeE2eKey(
  config: ConfigFile,
  { key, source }: { key: E2eKey; source: E2eKeySource },
  now: Date,
  options: ComputerNameOptions,
): Promise<PutE2eKeyResponse> {
  const previous = currentE2eKey(config);
  const updatedAt = now.toISOString();
  await config.update((raw) => {
    const e2e = typeof raw.e2e === "object" && raw.e2e !== null ? raw.e2e : {};
    return { ...raw, e2e: { ...e2e, key, source, updatedAt } };
  });
  if (key !== previous) await resealComputerName(config, { previous, next: key }, options);
  return { keyId: await keyId(key), source, updatedAt };
}

async function newKey(
  request: PutE2eKeyRequest,
  accountId: string | undefined,
): Promise<{ key: E2eKey; source: E2eKeySource }> {
  if ("passphrase" in request) {
    if (!isPassphraseLongEnough(request.passphrase)) throw new RingbackError("passphrase_too_short");
    // Salted with the account (passphrase keys version 2): the devices derive the same key from the same phrase.
    if (accountId === undefined) throw new RingbackError("account_required");
    return { key: await deriveKeyFromPassphrase(request.passphrase, accountId), source: "passphrase" };
  }
  if ("key" in request) {
    try {
      return { key: parseKey(request.key), source: "imported" };
    } catch (error) {
      if (isE2eError(error, "invalid_key")) throw new RingbackError("invalid_key");
      throw error;
    }
  }
  return { key: generateKey(), source: "random" };
}

function requireE2e(config: ConfigFile) {
  const { e2e } = config.config;
  // ConfigFile.load adds a key on the first run, so this only fails on a bug.
  if (!e2e) throw new Error(`${config.path} has no end-to-end key`);
  return e2e;
}

/** The current key, parsed, for sealing. */
export function currentE2eKey(config: ConfigFile): E2eKey {
  return parseKey(requireE2e(config).key);
}
