import type { DaemonAccessView } from "../controller/daemon-access.js";

export interface ComputerEntry {
  readonly id: string;
  /** Its name as this device reads it; null when it does not open (a screen names it "a computer"). */
  readonly name: string | null;
  readonly isOnline: boolean;
  readonly lastSeenAt: string | null;
  /** The computer this device's daemon requests go to. */
  readonly isChosen: boolean;
}

/**
 * Settings › Your computer: not listed yet, none in the account (say how to add one), or the computers with their
 * online state and the chosen one; a choice is offered only when there are several.
 */
export type ComputerChoiceView =
  | { readonly state: "loading" }
  | { readonly state: "none" }
  | { readonly state: "listed"; readonly computers: readonly ComputerEntry[]; readonly canChoose: boolean };

export function computerChoiceView(access: DaemonAccessView): ComputerChoiceView {
  if (access.computers === null) return { state: "loading" };
  if (access.computers.length === 0) return { state: "none" };
  const computers = access.computers.map((device) => ({
    id: device.id,
    name: device.name,
    isOnline: device.online,
    lastSeenAt: device.lastSeenAt,
    isChosen: device.id === access.computerId,
  }));
  return { state: "listed", computers, canChoose: computers.length > 1 };
}
