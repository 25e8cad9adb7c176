import { z } from "zod";

/*
 * What relay instances sharing one PostgreSQL database tell each other over LISTEN/NOTIFY. Ids only: every
 * instance reads the rows itself, so no ciphertext (and nothing over NOTIFY's 8000-byte limit) crosses the channel.
 */

/** An account's stream grew up to `seq` (committed in the same transaction as the entries). */
const EntriesCommitted = z.object({ t: z.literal("entries"), a: z.string(), s: z.number().int() });
/** A device was removed: its streams and link close on every instance. */
const DeviceRemoved = z.object({ t: z.literal("device-removed"), d: z.string() });
/** A daemon link opened with lease generation `g`: an instance holding an older link for the device closes it. */
const LinkOpened = z.object({ t: z.literal("link-opened"), d: z.string(), g: z.number().int() });
/** A reply was queued for a computer: the instance holding its link sends it. */
const ReplyQueued = z.object({ t: z.literal("reply"), d: z.string(), r: z.string() });
/** Instance `i` holds the link: a settings request waits in its row, sent by device `s` (absent from older instances). */
const SettingsRequested = z.object({
  t: z.literal("settings-request"),
  i: z.string(),
  d: z.string(),
  r: z.string(),
  s: z.string().optional(),
});
/** Instance `i` asked: the answer waits in the request's row. */
const SettingsAnswered = z.object({
  t: z.literal("settings-answer"),
  i: z.string(),
  d: z.string(),
  r: z.string(),
});

/** Instance `i` stored computer `d`'s fleet state (account `a`): the others pass on the row they read. */
const FleetChanged = z.object({ t: z.literal("fleet"), a: z.string(), d: z.string(), i: z.string() });

export const ClusterMessage = z.discriminatedUnion("t", [
  EntriesCommitted,
  DeviceRemoved,
  LinkOpened,
  ReplyQueued,
  SettingsRequested,
  SettingsAnswered,
  FleetChanged,
]);
export type ClusterMessage = z.infer<typeof ClusterMessage>;

export function encodeClusterMessage(message: ClusterMessage): string {
  return JSON.stringify(message);
}

/** Null for a payload this version does not know (a newer instance during a rolling upgrade). */
export function decodeClusterMessage(payload: string): ClusterMessage | null {
  try {
    const parsed = ClusterMessage.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
