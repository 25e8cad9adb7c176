import { z } from "zod";
import { PREINSTALLED_MODES } from "./preinstalled-modes.js";
import { EVERY_DAY, RingMode, RingRule, TimeRange } from "./ring-mode.js";

/**
 * A mode as older versions saved it: no repeat days (it applied to every day), `enabled` or `on`, and a single
 * `start`/`end` or a list of ranges.
 */
const OlderRingMode = z
  .object({
    id: z.string().min(1).optional(),
    name: z.string().default(""),
    ranges: z.array(TimeRange).min(1).optional(),
    start: z.string().optional(),
    end: z.string().optional(),
    rule: RingRule,
    on: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .loose();

/**
 * The ring modes kept on the device. Nothing stored yet: the two preinstalled modes, both off. Modes saved by older
 * versions (without repeat days) apply to every day and keep their on state. A mode that cannot be read is left out
 * rather than letting one bad entry silence or unsilence the phone unpredictably.
 */
export function readStoredModes(stored: unknown): RingMode[] {
  if (!Array.isArray(stored)) return PREINSTALLED_MODES.map((mode) => ({ ...mode }));
  const modes: RingMode[] = [];
  stored.forEach((entry, index) => {
    const current = RingMode.safeParse(entry);
    if (current.success) {
      modes.push(current.data);
      return;
    }
    const older = OlderRingMode.safeParse(entry);
    if (!older.success) return;
    const ranges =
      older.data.ranges ??
      (older.data.start && older.data.end ? [{ start: older.data.start, end: older.data.end }] : []);
    const upgraded = RingMode.safeParse({
      id: older.data.id ?? `mode-${index}`,
      name: older.data.name,
      preset: null,
      ranges,
      repeat: [...EVERY_DAY],
      rule: older.data.rule,
      on: older.data.on ?? older.data.enabled ?? false,
    });
    if (upgraded.success) modes.push(upgraded.data);
  });
  return modes;
}
