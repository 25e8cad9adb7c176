import type { RingMode } from "@ringback/client";
import { type CallState, isRingingAllowedAt, WAITING_STATES } from "@ringback/client";

/**
 * What a push of a call still pending at the relay does on this device:
 * - `ring`: a ringing notification (sound, renotify, stays until acted on);
 * - `missed`: a silent "Missed call" notification, never a ring; with `isRecorded` the worker also stores the call
 *   record as missed, so the page shows it missed when it opens instead of admitting it afresh;
 * - `none`: nothing to show, and the call's earlier notification goes (the device already settled the call).
 */
export type PushRing =
  | { readonly kind: "ring" }
  | { readonly kind: "missed"; readonly isRecorded: boolean }
  | { readonly kind: "none" };

/**
 * The spec's call lifecycle applied to a push while the app may be closed. `knownState` is the state of the call
 * record this device already keeps (undefined when the page never learned of the call), `modes` the device's ring
 * modes, `at` the push's arrival (the device's local time).
 */
export function pushRing(knownState: CallState | undefined, modes: readonly RingMode[], at: Date): PushRing {
  // missed: "Stays missed after ringing periods return": a repeat push never rings it.
  if (knownState === "missed") return { kind: "missed", isRecorded: false };
  // Ended, acknowledged, in a call or failed here: a call shows at most once per device.
  if (knownState !== undefined && !WAITING_STATES.includes(knownState)) return { kind: "none" };
  if (!isRingingAllowedAt(modes, at)) {
    // any waiting | Report arrives outside a ringing period (including while the app was closed) -> missed.
    // A call the page already holds as waiting is the page's to turn missed (its own schedule check).
    return { kind: "missed", isRecorded: knownState === undefined };
  }
  return { kind: "ring" };
}
