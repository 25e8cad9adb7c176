import type { DaemonConfig } from "@ringback/protocol";
import { readPresence } from "../presence/presence-file.js";
import { describePresence } from "../presence/presence-words.js";
import { type DoctorCheck, ok, warn } from "./doctor-check.js";

/** Whether an agent's permission ask rings the phones; away without a relay identity rings nothing. */
export async function checkPresence(dataDir: string, config: DaemonConfig | null): Promise<DoctorCheck> {
  const presence = await readPresence(dataDir);
  const summary = describePresence(presence);
  const details = { ...presence };
  if (presence.away && !config?.relay?.deviceToken) {
    return warn(
      "presence",
      `${summary}, but this computer has no relay identity: the agent's own dialog shows instead`,
      "ringback login",
      details,
    );
  }
  return ok("presence", summary, details);
}
