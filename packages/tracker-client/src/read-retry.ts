import { TRACKER_READ_RETRY_DELAYS_MS } from "@ringback/protocol";
import { isRetryableStatus, type TrackerFailure } from "./error-mapping.js";

/** What one attempt of a tracker call came back with. */
export type Outcome =
  | { kind: "answer"; body: unknown }
  | { kind: "failure"; failure: TrackerFailure }
  | { kind: "network"; error: unknown; description: string };

export interface ReadRetryOptions {
  /** `GET /api/...`, for the log. */
  label: string;
  sleep: (ms: number) => Promise<void>;
  log: (line: string) => void;
}

function retryReason(outcome: Outcome): string | undefined {
  if (outcome.kind === "network") return `network error: ${outcome.description}`;
  if (outcome.kind === "failure" && isRetryableStatus(outcome.failure.status)) {
    return `status ${outcome.failure.status}: ${outcome.failure.message}`;
  }
  return undefined;
}

/**
 * Runs a read, retrying a network error, a 5xx or a 429 after each of TRACKER_READ_RETRY_DELAYS_MS
 * (0.5, 1, 2 s): four attempts at most. Retry-After is deliberately not honoured; the spec fixes the
 * schedule.
 */
export async function retryRead(
  attempt: () => Promise<Outcome>,
  options: ReadRetryOptions,
): Promise<Outcome> {
  const delays = TRACKER_READ_RETRY_DELAYS_MS;
  for (let retry = 0; ; retry += 1) {
    const outcome = await attempt();
    const reason = retryReason(outcome);
    if (reason === undefined) return outcome;
    const delayMs = delays[retry];
    if (delayMs === undefined) {
      options.log(
        `tracker read ${options.label} failed (${reason}); giving up after ${delays.length} retries`,
      );
      return outcome;
    }
    options.log(
      `tracker read ${options.label} failed (${reason}); retry ${retry + 1} of ${delays.length} in ${delayMs} ms`,
    );
    await options.sleep(delayMs);
  }
}
