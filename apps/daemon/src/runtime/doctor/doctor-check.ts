/** One line of `ringback doctor`: ok, warn or fail, what is wrong, and the command that fixes it. */
export interface DoctorCheck {
  /** Stable for scripts: `hook-claude-code`, `hook-codex`, `daemon`, `relay`, `push`, `key`, `model`, `tracker`, `last-report`, `presence`, `secret-files`. */
  readonly id: string;
  readonly status: "ok" | "warn" | "fail";
  readonly summary: string;
  /** The command (or the place in the app) that fixes it; null when nothing needs fixing. */
  readonly fix: string | null;
  /** Facts behind the summary, for `--json` (identities and states, never a key or a token). */
  readonly details: Readonly<Record<string, unknown>>;
}

export function ok(id: string, summary: string, details: Record<string, unknown> = {}): DoctorCheck {
  return { id, status: "ok", summary, fix: null, details };
}

export function warn(
  id: string,
  summary: string,
  fix: string | null,
  details: Record<string, unknown> = {},
): DoctorCheck {
  return { id, status: "warn", summary, fix, details };
}

export function fail(
  id: string,
  summary: string,
  fix: string | null,
  details: Record<string, unknown> = {},
): DoctorCheck {
  return { id, status: "fail", summary, fix, details };
}
