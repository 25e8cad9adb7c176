/** Where the hook says why it did what it did; silent unless someone asked (stdout is never used). */
export type DebugLog = (message: string) => void;

/** `RINGBACK_HOOK_DEBUG=1` turns the log on. */
export function isDebugRequested(env: NodeJS.ProcessEnv): boolean {
  return env.RINGBACK_HOOK_DEBUG === "1";
}

export function createDebugLog(enabled: boolean, stderr?: NodeJS.WritableStream): DebugLog {
  if (!enabled) return () => {};
  return (message) => {
    (stderr ?? process.stderr).write(`ringback-hook: ${message}\n`);
  };
}
