import { PRESENCE_SET_FROM_A_DEVICE, PRESENCE_SET_HERE, type Presence } from "@ringback/protocol";
import type { NeedsYouTexts } from "../i18n/texts/needs-you.js";

/**
 * Who set a computer's presence and when, in the interface language: a ring mode by its name, the computer itself, a
 * phone, or the computer's own words for anything else. Null while it was never set (the default).
 */
export function presenceSetByText(
  presence: Presence,
  t: NeedsYouTexts,
  formatAt: (at: Date) => string,
): string | null {
  if (!presence.changedAt || !presence.changedBy) return null;
  const at = formatAt(new Date(presence.changedAt));
  if (presence.changedByMode) return t.awaySetByMode(presence.changedByMode, at);
  if (presence.changedBy === PRESENCE_SET_HERE) return t.awaySetHere(at);
  if (presence.changedBy === PRESENCE_SET_FROM_A_DEVICE) return t.awaySetFromDevice(at);
  return t.awaySetBy(presence.changedBy, at);
}
