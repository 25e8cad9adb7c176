import { type AwaySchedule, RingbackError } from "@ringback/protocol";
import type { RequestSender } from "../../http/relayed.js";

/**
 * The away times as kept, marked with the device they belong to. A device through the relay gets the id the relay
 * stamped from its token, whatever the body says: a body naming another device is refused (`device_mismatch`), so
 * no device can mark its times as another's (which that one would then take back). From a relay older than the
 * stamp the times carry no device. A caller on this computer holds the local key: its body is taken as it is.
 */
export function ownedSchedule(schedule: AwaySchedule | null, sender: RequestSender): AwaySchedule | null {
  if (schedule === null || sender.kind === "local") return schedule;
  const { deviceId: named, ...times } = schedule;
  if (sender.deviceId === undefined) return times;
  if (named !== undefined && named !== sender.deviceId) {
    throw new RingbackError(
      "device_mismatch",
      "These away times name another device than the one that sent them; a device sends only its own.",
    );
  }
  return { ...times, deviceId: sender.deviceId };
}
