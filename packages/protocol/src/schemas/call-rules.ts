import { z } from "zod";
import { TimeOfDay } from "./away-schedule.js";

/*
 * Rules the person sets for finished calls (a needs-you call always rings at once): a gathering window so agents
 * finishing close together make one call, a choice per project, and a daily quiet summary. Each computer's daemon
 * keeps them in its configuration and applies them to its own calls; the phone joins calls of several computers that
 * arrive while it rings into one round-up.
 */

/** How a finished call of a project reaches the person. `round-up`: it waits for the next call that rings (or the
 * quiet summary) and is read in its round-up; `silent`: it waits for the quiet summary. */
export const ProjectRing = z.enum(["ring", "round-up", "silent"]);
export type ProjectRing = z.infer<typeof ProjectRing>;

/** The longest project name a rule or a fleet entry carries. */
export const PROJECT_NAME_MAX_CHARS = 120;

export const GATHER_SECONDS_DEFAULT = 20;
export const GATHER_SECONDS_MAX = 300;
/** The most projects with a rule of their own. */
export const PROJECT_RULES_MAX = 200;

export const CallRules = z
  .object({
    /** Finished calls whose turns end within this many seconds of the first make one call; 0 turns it off. */
    gatherSeconds: z.number().int().min(0).max(GATHER_SECONDS_MAX).default(GATHER_SECONDS_DEFAULT),
    /** Projects (as the fleet names them) that do not simply ring; any other project rings. */
    projects: z
      .record(z.string().trim().min(1).max(PROJECT_NAME_MAX_CHARS), ProjectRing)
      .refine(
        (projects) => Object.keys(projects).length <= PROJECT_RULES_MAX,
        `at most ${PROJECT_RULES_MAX} projects`,
      )
      .default({}),
    /** The computer's local time each day when waiting round-up and silent calls ring as one round-up; null: never. */
    quietSummaryAt: TimeOfDay.nullable().default(null),
  })
  .strict();
export type CallRules = z.infer<typeof CallRules>;

/**
 * Whether the relay rings a posted call (pushes it, and devices ring it) or only keeps and lists it (`quiet`: a
 * round-up-only or silent project's call, read later in a round-up). Absent means `ring` (older daemons).
 */
export const CallRing = z.enum(["ring", "quiet"]);
export type CallRing = z.infer<typeof CallRing>;
