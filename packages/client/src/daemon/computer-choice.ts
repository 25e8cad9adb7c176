import type { DeviceInfo } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";

/** No computer (a daemon's device) has joined the account: there is no daemon to ask. */
export class NoComputerError extends ClientError<"no_computer"> {
  override readonly name = "NoComputerError";
  constructor() {
    super("no_computer", "No computer running the Ringback daemon has joined this account.");
  }
}

/** What the choice reads of a device (a listed `DeviceInfo`, or one with its name read: `ReadableDevice`). */
type ListedDevice = Pick<DeviceInfo, "id" | "kind" | "online">;

export function computersOf<T extends ListedDevice>(devices: readonly T[]): T[] {
  return devices.filter((device) => device.kind === "computer");
}

/**
 * The computer whose daemon settings and dispatches go to: the one chosen before while it is still in the account,
 * else the first computer online, else the first computer; null when the account has none.
 */
export function chooseComputer(devices: readonly ListedDevice[], storedId: string | null): string | null {
  const computers = computersOf(devices);
  return (
    computers.find((device) => device.id === storedId)?.id ??
    computers.find((device) => device.online)?.id ??
    computers[0]?.id ??
    null
  );
}
