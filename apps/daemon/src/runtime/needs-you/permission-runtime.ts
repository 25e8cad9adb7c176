import type { AwaySchedule, PermissionAnswer, Presence } from "@ringback/protocol";
import { readPresence, saveAwaySchedule, savePresence } from "../presence/presence-file.js";
import { askPermission, type PermissionAskContext } from "./ask-permission.js";
import type { PendingAsks } from "./pending-asks.js";

type AskRequest = Parameters<typeof askPermission>[0];

/** "Needs you" asks and this computer's presence, as the routes use them. */
export class PermissionRuntime {
  readonly #context: PermissionAskContext;

  constructor(context: PermissionAskContext) {
    this.#context = context;
  }

  get pendingAsks(): PendingAsks {
    return this.#context.pendingAsks;
  }

  /** `POST /permission-requests`: the answer for the hook, once there is one. */
  ask(request: AskRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    return askPermission(request, this.#context, signal);
  }

  presence(): Promise<Presence> {
    return readPresence(this.#context.dataDir, this.#context.log, this.#context.now());
  }

  async setPresence(away: boolean, changedBy: string): Promise<Presence> {
    const presence = await savePresence(this.#context.dataDir, { away, changedBy }, this.#context.now());
    this.#context.log(`presence set to ${away ? "away" : "present"} by ${changedBy}`);
    return this.#followed(presence);
  }

  async setAwaySchedule(schedule: AwaySchedule | null, setBy: string): Promise<Presence> {
    const presence = await saveAwaySchedule(this.#context.dataDir, { schedule, setBy }, this.#context.now());
    const modes = schedule ? schedule.periods.map((period) => `"${period.modeName}"`).join(", ") : "none";
    this.#context.log(
      `ring modes' away times set by ${setBy}: ${modes}; ${presence.away ? "away" : "present"} now`,
    );
    return this.#followed(presence);
  }

  /** Back at the keyboard: the waiting agents show their own dialogs now. */
  #followed(presence: Presence): Presence {
    if (!presence.away) this.#context.pendingAsks.endAll({ outcome: "present" });
    return presence;
  }

  /** The daemon stops: every held hook gets `failed` now rather than a cut connection later. */
  stop(): void {
    this.#context.pendingAsks.endAll({ outcome: "failed" });
  }
}
