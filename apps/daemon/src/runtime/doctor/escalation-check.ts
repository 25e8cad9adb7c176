import { EscalationSettings } from "@ringback/protocol";
import { IdleAwayReader } from "../presence/idle-away.js";
import { type DoctorCheck, ok, warn } from "./doctor-check.js";

/**
 * The escalation ladder's channels (never their secrets), and whether this computer's input idle time can be read:
 * where it cannot, doctor says so and only the switch and the ring modes set away (today's rule).
 */
export async function checkEscalation(rawConfig: unknown, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const section = (rawConfig as { escalation?: unknown } | null)?.escalation;
  const parsed = EscalationSettings.safeParse(section ?? { channels: [] });
  if (!parsed.success) {
    return warn(
      "escalation",
      "the escalation section of daemon.json is not valid: no channel is tried",
      "ringback escalation (set the channels again)",
    );
  }
  const settings = parsed.data;
  const kinds = settings.channels.map((channel) => channel.kind);
  const ladder =
    kinds.length > 0 ? `the push again, then ${kinds.join(", ")}` : "the push again only (no channel)";
  const reader = new IdleAwayReader({ raw: { escalation: settings } }, IdleAwayReader.readerFor(env));
  const idle = await reader.check();
  const idleWords =
    idle.kind === "off"
      ? "away by idle time: off"
      : idle.kind === "unavailable"
        ? `away by idle time: cannot read it (${idle.reason.replace(/^no input idle time here \((.*)\)$/, "$1")}); the switch and the ring modes alone set away`
        : `away after ${idle.thresholdSeconds} s idle (now ${idle.reading.seconds} s, from ${idle.reading.source})`;
  return ok("escalation", `ladder: ${ladder}; ${idleWords}`, {
    channels: kinds,
    schedule: settings.schedule,
    idle,
  });
}
