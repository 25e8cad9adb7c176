/**
 * Whether a process with this id still exists: signal 0 only asks. EPERM says it exists under another user, so a
 * leftover it owns is not taken for an abandoned one.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
