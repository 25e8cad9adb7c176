import { type RingingOutlook, ringingOutlook } from "../ring-schedule/day-evaluation.js";
import { deleteMode, type ModesChange, saveMode, setModeOn } from "../ring-schedule/mode-overlap.js";
import type { RingMode } from "../ring-schedule/ring-mode.js";
import { RingModesSchedule } from "../ring-schedule/ring-modes-schedule.js";
import type { LocalSettings } from "../storage/local-settings.js";
import { Observable } from "./observable.js";

export interface RingModesView {
  readonly modes: readonly RingMode[];
  /** The modes the last change turned off because they share a day with the mode turned on. */
  readonly turnedOff: readonly RingMode[];
}

/** Settings › Ring modes: the modes on the device, and the ring schedule the call reducer reads. */
export class RingModesController extends Observable<RingModesView> {
  readonly schedule = new RingModesSchedule([]);

  constructor(
    private readonly settings: LocalSettings,
    private readonly onChange: () => void = () => undefined,
  ) {
    super({ modes: [], turnedOff: [] });
  }

  async load(): Promise<void> {
    const modes = await this.settings.loadRingModes();
    this.schedule.modes = modes;
    this.update({ modes, turnedOff: [] });
  }

  outlook(now: Date): RingingOutlook {
    return ringingOutlook(this.view.modes, now);
  }

  save(mode: RingMode): Promise<ModesChange> {
    return this.#apply(saveMode(this.view.modes, mode));
  }

  setOn(id: string, on: boolean): Promise<ModesChange> {
    return this.#apply(setModeOn(this.view.modes, id, on));
  }

  remove(id: string): Promise<ModesChange> {
    return this.#apply({ modes: deleteMode(this.view.modes, id), turnedOff: [] });
  }

  async #apply(change: ModesChange): Promise<ModesChange> {
    await this.settings.saveRingModes(change.modes);
    this.schedule.modes = change.modes;
    this.update({ modes: change.modes, turnedOff: change.turnedOff });
    this.onChange();
    return change;
  }
}
