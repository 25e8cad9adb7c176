import { RELAY_SSE_EVENTS, type RelayedFleetState } from "@ringback/protocol";
import type { StreamEntry } from "../store/store.js";

const encoder = new TextEncoder();
// A broadcast encodes each entry once, however many streams it goes to.
const frames = new WeakMap<StreamEntry, Uint8Array>();

function frame(id: number | null, event: string, data: unknown): Uint8Array {
  // JSON.stringify never emits a raw newline, so the data fits on one `data:` line.
  const idLine = id === null ? "" : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The SSE frame of a stream entry, with its seq as the id. */
export function entryFrame(entry: StreamEntry): Uint8Array {
  let bytes = frames.get(entry);
  if (!bytes) {
    if (entry.kind === "call") bytes = frame(entry.seq, RELAY_SSE_EVENTS.call, entry.event);
    else if (entry.kind === "call-status")
      bytes = frame(entry.seq, RELAY_SSE_EVENTS.callStatus, entry.change);
    else if (entry.kind === "call-delivery")
      bytes = frame(entry.seq, RELAY_SSE_EVENTS.callDelivery, entry.delivery);
    else bytes = frame(entry.seq, RELAY_SSE_EVENTS.replyStatus, entry.change);
    frames.set(entry, bytes);
  }
  return bytes;
}

/** The frames of several entries as one buffer, for one socket write per stream; one entry's frame as it is. */
export function entryFrames(entries: readonly StreamEntry[]): Uint8Array {
  if (entries.length === 1) return entryFrame(entries[0] as StreamEntry);
  return Buffer.concat(entries.map(entryFrame));
}

/** Ends the backlog; its id lets a later resume skip everything already considered. */
export function syncedFrame(seq: number): Uint8Array {
  return frame(seq, RELAY_SSE_EVENTS.synced, { seq });
}

/** A computer's fleet state: no id (a state, not an entry of the stream; a resume never skips it). */
export function fleetFrame(state: RelayedFleetState): Uint8Array {
  return frame(null, RELAY_SSE_EVENTS.fleet, state);
}

export function deviceRemovedFrame(deviceId: string): Uint8Array {
  return frame(null, RELAY_SSE_EVENTS.deviceRemoved, { deviceId });
}

export function retryFrame(retryMs: number): Uint8Array {
  return encoder.encode(`retry: ${retryMs}\n\n`);
}

export const HEARTBEAT_FRAME: Uint8Array = encoder.encode(": heartbeat\n\n");
