import type { AwaySchedule, Presence } from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import { hasDaemonCode } from "../daemon/daemon-error.js";
import type { ReadableDevice } from "../devices/device-list.js";
import { type ComputerProblem, computerProblemOf } from "./computer-problem.js";

/** The presence requests of one computer's daemon, relayed (a `DaemonClient` is one). */
export interface PresenceClient {
  presence(): Promise<Presence>;
  setPresence(away: boolean): Promise<Presence>;
  setAwaySchedule(schedule: AwaySchedule | null): Promise<Presence>;
}

/** Sends the away times; a daemon older than them (404) keeps its switch, which is asked instead. */
async function sendSchedule(client: PresenceClient, schedule: AwaySchedule | null): Promise<Presence> {
  try {
    return await client.setAwaySchedule(schedule);
  } catch (error) {
    if (hasDaemonCode(error, "not_found")) return client.presence();
    throw error;
  }
}

/** One computer's "I'm away" switch. */
export interface PresenceRow {
  readonly computerId: string;
  /** Its name as this device reads it; null when it does not open (a screen names it "a computer"). */
  readonly name: string | null;
  readonly isOnline: boolean;
  /** As the computer last said; null until it has answered. */
  readonly presence: Presence | null;
  readonly isBusy: boolean;
  /** False when the computer's daemon has no presence (an older version answers 404, or does not relay it). */
  readonly isSupported: boolean;
  readonly problem: ComputerProblem | null;
}

export interface PresenceView {
  /** The account's computers; null before the first listing. */
  readonly rows: readonly PresenceRow[] | null;
  /** Why the computers could not be listed. */
  readonly problem: ComputerProblem | null;
}

export interface PresenceDependencies {
  /** The account's computers, as the relay lists them now. */
  readonly listComputers: () => Promise<readonly ReadableDevice[]>;
  readonly clientFor: (computerId: string) => PresenceClient;
  /** The away times this device's ring modes set now (null: none). */
  readonly awaySchedule: () => AwaySchedule | null;
  /** This device's id, which marks the away times it sent; null before it is paired. */
  readonly ownDeviceId: () => string | null;
}

/**
 * The idle screen's "I'm away" switch, one per computer: each computer's presence (`GET /presence`, relayed) and its
 * change (`PUT /presence {away}`): while away, an agent asking permission there rings the phones and waits.
 */
export class PresenceController extends Observable<PresenceView> {
  readonly #deps: PresenceDependencies;

  constructor(deps: PresenceDependencies) {
    super({ rows: null, problem: null });
    this.#deps = deps;
  }

  /**
   * Lists the computers and asks each for its presence (an offline one is shown, not asked). When this device's ring
   * modes set away times, each computer is sent them again instead (the time zone may have changed since). A device
   * without away times leaves another device's as they are, and takes back its own that a computer still keeps (it
   * was offline when they were turned off).
   */
  async refresh(): Promise<void> {
    let computers: readonly ReadableDevice[];
    try {
      computers = await this.#deps.listComputers();
    } catch (error) {
      this.update({ problem: computerProblemOf(error) });
      return;
    }
    const known = new Map((this.view.rows ?? []).map((row) => [row.computerId, row]));
    const rows = computers.map((computer) => ({
      computerId: computer.id,
      name: computer.name,
      isOnline: computer.online,
      presence: known.get(computer.id)?.presence ?? null,
      isBusy: computer.online,
      isSupported: true,
      problem: null,
    }));
    this.update({ rows, problem: null });
    const schedule = this.#deps.awaySchedule();
    const ownDeviceId = this.#deps.ownDeviceId();
    await Promise.all(
      rows
        .filter((row) => row.isOnline)
        .map((row) =>
          this.#ask(row.computerId, async (client) => {
            if (schedule) return sendSchedule(client, schedule);
            const presence = await client.presence();
            const keepsOurs = ownDeviceId !== null && presence.schedule?.deviceId === ownDeviceId;
            return keepsOurs ? client.setAwaySchedule(null) : presence;
          }),
        ),
    );
  }

  /**
   * After this device's ring modes changed: each computer online gets their away times, or, when they set none now,
   * gives back the ones this device sent before (another device's stay). The rows show what each computer works out.
   */
  sendAwaySchedule(): Promise<void> {
    return this.refresh();
  }

  /** Turns "I'm away" on or off on one computer; the row shows what the computer saved. */
  setAway(computerId: string, away: boolean): Promise<void> {
    return this.#ask(computerId, (client) => client.setPresence(away));
  }

  async #ask(computerId: string, request: (client: PresenceClient) => Promise<Presence>): Promise<void> {
    this.#changeRow(computerId, { isBusy: true, problem: null });
    try {
      const presence = await request(this.#deps.clientFor(computerId));
      this.#changeRow(computerId, { presence, isBusy: false });
    } catch (error) {
      if (hasDaemonCode(error, "not_found") || hasDaemonCode(error, "not_relayed"))
        this.#changeRow(computerId, { isBusy: false, isSupported: false });
      else this.#changeRow(computerId, { isBusy: false, problem: computerProblemOf(error) });
    }
  }

  #changeRow(computerId: string, change: Partial<PresenceRow>): void {
    const rows = this.view.rows?.map((row) => (row.computerId === computerId ? { ...row, ...change } : row));
    if (rows) this.update({ rows });
  }
}
