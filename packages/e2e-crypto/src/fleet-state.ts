import { aad } from "./aad.js";
import { E2eError } from "./e2e-error.js";
import type { E2eKey } from "./key.js";
import { openJson } from "./open.js";
import { type SealOptions, sealString } from "./seal.js";

const encoder = new TextEncoder();

/**
 * Seals a computer's fleet state (protocol's `FleetState`) for the account's devices: its JSON text followed by the
 * spaces that bring its UTF-8 length to the next multiple of `padStepBytes` (protocol's `FLEET_PAD_STEP_BYTES`), so
 * the relay learns only how many steps it takes; associated data `ringback/v1/fleet/<computerId>`.
 */
export async function sealFleetState(
  key: E2eKey,
  computerId: string,
  state: unknown,
  padStepBytes: number,
  options: SealOptions = {},
): Promise<string> {
  if (!Number.isSafeInteger(padStepBytes) || padStepBytes < 1) {
    throw new RangeError("A padding step is a whole number of bytes.");
  }
  const text: string | undefined = JSON.stringify(state);
  if (text === undefined) throw new TypeError("sealFleetState needs a JSON-serialisable state.");
  const bytes = encoder.encode(text).length;
  const padded = Math.ceil(bytes / padStepBytes) * padStepBytes;
  return sealString(key, aad.fleet(computerId), text + " ".repeat(padded - bytes), options);
}

/**
 * Opens a state sealed by `sealFleetState` for `computerId` and parses its JSON (the shape is the caller's to check
 * with protocol's `FleetState`): `key_mismatch` under another key; `corrupted` when altered, sealed for another
 * computer or purpose, or not a JSON object.
 */
export async function openFleetState(key: E2eKey, computerId: string, sealed: string): Promise<unknown> {
  const value = await openJson<unknown>(key, aad.fleet(computerId), sealed);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new E2eError("corrupted", "The sealed text is not a fleet state.");
  }
  return value;
}
