/** The tracker's variables in the environment of an agent it started for a task. */
const TRACKER_TASK_VARIABLES = ["MULTICA_TASK_ID", "MULTICA_ISSUE_ID"] as const;

/**
 * The tracker variable that marks this session as a tracker task, if any: the daemon learns of those
 * tasks from the tracker itself, so reporting them here too would ring twice.
 */
export function trackerTaskVariable(env: NodeJS.ProcessEnv): string | undefined {
  return TRACKER_TASK_VARIABLES.find((name) => (env[name] ?? "") !== "");
}
