import { z } from "zod";
import { CLASSIC_TONE, NEEDS_YOU_TONE, RINGBACK_TONE } from "../audio/tones.js";

/**
 * The ringtone items: the incoming-call tone (an agent finished), the "needs you" tone (an agent waits for
 * permission) and the call-waiting tone (played while a dispatch is calling).
 */
export const RINGTONE_ITEMS = ["incoming", "needsYou", "callWaiting"] as const;
export type RingtoneItem = (typeof RINGTONE_ITEMS)[number];

/**
 * Which tone an item uses: `builtin:<id>`, `file:<id>` (a user's file on this device), or `silent` (call waiting
 * only: "may be silent").
 */
export const ToneRef = z.string().regex(/^(?:builtin:[\w-]+|file:[\w-]+|silent)$/);
export type ToneRef = z.infer<typeof ToneRef>;

export const SILENT: ToneRef = "silent";

export function builtinRef(id: string): ToneRef {
  return `builtin:${id}`;
}

export function fileRef(id: string): ToneRef {
  return `file:${id}`;
}

export type RingtoneChoices = Readonly<Record<RingtoneItem, ToneRef>>;

/** Incoming calls ring "classic", "needs you" calls their own bursts; call waiting plays the 450 Hz ringback. */
export const DEFAULT_RINGTONE_CHOICES: RingtoneChoices = {
  incoming: builtinRef(CLASSIC_TONE.id),
  needsYou: builtinRef(NEEDS_YOU_TONE.id),
  callWaiting: builtinRef(RINGBACK_TONE.id),
};

export function readRingtoneChoices(stored: unknown): RingtoneChoices {
  const parsed = z
    .object({ incoming: ToneRef, needsYou: ToneRef, callWaiting: ToneRef })
    .partial()
    .safeParse(stored);
  const choices = { ...DEFAULT_RINGTONE_CHOICES, ...(parsed.success ? parsed.data : {}) };
  // Only the call-waiting tone may be silent: an incoming call that cannot be heard is a missed call.
  if (choices.incoming === SILENT) choices.incoming = DEFAULT_RINGTONE_CHOICES.incoming;
  if (choices.needsYou === SILENT) choices.needsYou = DEFAULT_RINGTONE_CHOICES.needsYou;
  return choices;
}

/** The items that use a tone: deleting it asks first, naming them. */
export function itemsUsing(choices: RingtoneChoices, ref: ToneRef): RingtoneItem[] {
  return RINGTONE_ITEMS.filter((item) => choices[item] === ref);
}

/** After a tone is deleted, every item that used it goes back to its default. */
export function withoutTone(choices: RingtoneChoices, ref: ToneRef): RingtoneChoices {
  const next = { ...choices };
  for (const item of itemsUsing(choices, ref)) next[item] = DEFAULT_RINGTONE_CHOICES[item];
  return next;
}

/** The item a ringing call plays: its own tone for a "needs you" call (an agent waits), else the incoming tone. */
export function ringtoneItemOf(record: {
  readonly payload: { readonly needsYou?: unknown; readonly trackerQuestion?: unknown };
}): RingtoneItem {
  return record.payload.needsYou || record.payload.trackerQuestion ? "needsYou" : "incoming";
}
