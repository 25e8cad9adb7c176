import { type E2eKey, isE2eError, openDeviceName } from "@ringback/e2e-crypto";
import { DEVICE_NAME_MAX_CHARS, type DeviceKind, DeviceName } from "@ringback/protocol";

/*
 * Device names at the relay are sealed by each device with the account's key (`sealDeviceName`), so the relay stores
 * and lists them without reading them. Older clients sent plaintext names, which the relay still keeps as sent.
 */

/** Whether a name the relay lists is sealed (`e2e1.…`) rather than an older client's plaintext. */
export function isSealedDeviceName(name: string): boolean {
  return name.startsWith("e2e1.");
}

/**
 * A name as a device seals it: trimmed, 1 to `DEVICE_NAME_MAX_CHARS` characters. The relay cannot check a sealed name,
 * so the device does, before anything is sent (a `RangeError` otherwise).
 */
export function checkedDeviceName(name: string): string {
  const checked = DeviceName.safeParse(name);
  if (!checked.success) throw new RangeError(`A device name is 1 to ${DEVICE_NAME_MAX_CHARS} characters.`);
  return checked.data;
}

/**
 * What a device sends as its name while it does not hold the account's key yet (a key from the phrase is salted with
 * the account's id, known only once it joined): its kind, which says nothing the relay does not know. It sets its
 * sealed name as soon as it has the key.
 */
export function placeholderDeviceName(kind: DeviceKind): string {
  return kind;
}

/**
 * A name as the relay lists it, as a person reads it: an older client's plaintext name as it is, a sealed one opened
 * with `key`; null when it does not open (sealed under another key, or garbage): screens then name the device's kind.
 */
export async function readDeviceName(key: E2eKey, name: string): Promise<string | null> {
  if (!isSealedDeviceName(name)) return name;
  try {
    return await openDeviceName(key, name);
  } catch (error) {
    if (isE2eError(error)) return null;
    throw error;
  }
}

/**
 * A name the relay lists for a device of `kind`, read as `readDeviceName` does, and null for the placeholder (the
 * device has not set its name yet): screens name the device's kind then too.
 */
export async function readListedName(
  key: E2eKey,
  name: string,
  kind: DeviceKind | undefined,
): Promise<string | null> {
  if (kind !== undefined && name === placeholderDeviceName(kind)) return null;
  return readDeviceName(key, name);
}
