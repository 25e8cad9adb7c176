import { aad } from "./aad.js";
import { E2eError } from "./e2e-error.js";
import type { E2eKey } from "./key.js";
import { openJson } from "./open.js";
import { type SealOptions, sealString } from "./seal.js";

/**
 * The UTF-8 length every sealed device name's plaintext is padded to, so the relay learns nothing from the length.
 * It holds the JSON of any name of up to 100 UTF-16 code units (the relay's limit), however JSON escapes it: at
 * worst 100 `\u00XX` escapes, 611 bytes with `{"name":""}`.
 */
export const DEVICE_NAME_PADDED_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * Seals a device's name for the relay to store and list without reading it: the plaintext is `{"name":…}`
 * (`JSON.stringify`) followed by spaces up to `DEVICE_NAME_PADDED_BYTES`, the associated data
 * `ringback/v1/device-name`. A name whose JSON is longer than that is a `RangeError`.
 */
export async function sealDeviceName(key: E2eKey, name: string, options: SealOptions = {}): Promise<string> {
  if (typeof name !== "string") throw new TypeError("sealDeviceName seals a string.");
  const text = JSON.stringify({ name });
  const bytes = encoder.encode(text).length;
  if (bytes > DEVICE_NAME_PADDED_BYTES) {
    throw new RangeError(`A device name is at most ${DEVICE_NAME_PADDED_BYTES} bytes as JSON.`);
  }
  return sealString(key, aad.deviceName(), text + " ".repeat(DEVICE_NAME_PADDED_BYTES - bytes), options);
}

/**
 * Opens a name sealed by `sealDeviceName`: `key_mismatch` when another key sealed it, `corrupted` when it is
 * malformed, altered, sealed for another purpose or not `{name: string}`.
 */
export async function openDeviceName(key: E2eKey, sealed: string): Promise<string> {
  const value = await openJson<unknown>(key, aad.deviceName(), sealed);
  const name = typeof value === "object" && value !== null ? (value as { name?: unknown }).name : undefined;
  if (typeof name !== "string") throw new E2eError("corrupted", "The sealed text is not a device name.");
  return name;
}
