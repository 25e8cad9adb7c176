import { CallRules, GATHER_SECONDS_MAX } from "@ringback/protocol";
import type { RawConfig } from "../files/config-file.js";
import { StartError } from "../start-error.js";

/** Sets the gathering window of a daemon whose daemon.json sets none (tests and scripts; 0 sends at once). */
const GATHER_SECONDS_ENV = "RINGBACK_GATHER_SECONDS";

/**
 * The `callRules` section of daemon.json; a section that does not parse counts as none (the defaults: a 20 s
 * window, every project rings, no quiet summary). The window left unset there is `RINGBACK_GATHER_SECONDS`'s.
 */
export function savedCallRules(raw: Readonly<RawConfig>, env: NodeJS.ProcessEnv): CallRules {
  const saved = CallRules.safeParse(raw.callRules ?? {});
  const rules = saved.success ? saved.data : CallRules.parse({});
  const isWindowSaved = saved.success && hasOwnGatherSeconds(raw.callRules);
  const fromEnv = gatherSecondsFromEnv(env);
  return isWindowSaved || fromEnv === undefined ? rules : { ...rules, gatherSeconds: fromEnv };
}

/** `RINGBACK_GATHER_SECONDS` as a number of seconds; a value out of range stops the start, saying why. */
export function gatherSecondsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[GATHER_SECONDS_ENV];
  if (text === undefined || text === "") return undefined;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > GATHER_SECONDS_MAX) {
    throw new StartError(`${GATHER_SECONDS_ENV} must be 0 to ${GATHER_SECONDS_MAX} seconds, not "${text}"`);
  }
  return seconds;
}

function hasOwnGatherSeconds(section: unknown): boolean {
  return typeof section === "object" && section !== null && "gatherSeconds" in section;
}
