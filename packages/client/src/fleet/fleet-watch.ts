import type { E2eKey } from "@ringback/e2e-crypto";
import type { RelayedFleetState } from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import { EMPTY_FLEET_BOOK, type FleetBook, withFleetState } from "./fleet-book.js";
import { OpenFleetError, openRelayedFleetState } from "./open-fleet-state.js";

/**
 * The fleet as this device follows it: each computer's sealed state from the relay's stream is opened with the
 * account key (read when a state arrives: it may have been replaced), and the newest of each computer is kept. A state
 * that does not open is left out, its computer's last readable state kept.
 */
export class FleetWatch extends Observable<{ readonly book: FleetBook }> {
  readonly #key: () => E2eKey;

  constructor(key: () => E2eKey) {
    super({ book: EMPTY_FLEET_BOOK });
    this.#key = key;
  }

  /** One relayed state; resolves once it is opened and kept (or left out). */
  async receive(relayed: RelayedFleetState): Promise<void> {
    try {
      const state = await openRelayedFleetState(this.#key(), relayed);
      const book = withFleetState(this.view.book, relayed.computerId, state);
      if (book !== this.view.book) this.update({ book });
    } catch (error) {
      if (!(error instanceof OpenFleetError)) throw error;
    }
  }
}
