import type { DeviceKind } from "@ringback/protocol";
import type { CoreTexts } from "../i18n/texts/core.js";

/**
 * A device as a screen names it: its name as this device read it, else its kind ("a phone"), never ciphertext (a name
 * sealed under another key reads as null: `readDeviceName`).
 */
export function deviceLabel(
  device: { readonly name: string | null; readonly kind: DeviceKind },
  t: Pick<CoreTexts, "deviceOfKind">,
): string {
  return device.name ?? t.deviceOfKind(device.kind);
}
