/**
 * How long a move to blocked waits for the agent to explain it before it rings. Agents often move the issue first and
 * write why just after (a tool call or two later); the call reads the agent's newest comment, so without the wait it
 * would read the comment before the move. Bounded: a move with no comment rings this long after it.
 */
export const BLOCKED_EXPLANATION_WAIT_MS = 30_000;

/** How a wait for an explanation ended. */
export type ExplanationWait = "commented" | "timed-out" | "stopped";

/**
 * The agents' comments seen in realtime, for the moves to blocked that wait for their explanation: a wait ends when
 * the agent that moved the issue writes on it (a comment or a progress note) after the move, at its deadline, or when
 * the daemon stops. "After" is in the order realtime delivered them, not by time: a comment written just before the
 * move often arrives in the same millisecond, and one handled before the wait began still counts when it came later.
 */
export class AgentComments {
  readonly #now: () => number;
  readonly #signal: AbortSignal;
  readonly #keptMs: number;
  /** How many agents' comments were seen so far: the position of the newest. */
  #count = 0;
  /** `issueId agentId` -> the position of that agent's newest comment on that issue, and when it was seen (ms). */
  readonly #lastSeen = new Map<string, { position: number; atMs: number }>();
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(options: { now: () => number; signal: AbortSignal; keptMs: number }) {
    this.#now = options.now;
    this.#signal = options.signal;
    this.#keptMs = options.keptMs;
  }

  /** Where realtime is now: a comment seen after this has a later position. */
  position(): number {
    return this.#count;
  }

  /** An agent wrote on an issue (a realtime comment of its own words). */
  seen(issueId: string, agentId: string): void {
    const nowMs = this.#now();
    for (const [key, { atMs }] of this.#lastSeen) if (nowMs - atMs > this.#keptMs) this.#lastSeen.delete(key);
    this.#count += 1;
    const key = keyOf(issueId, agentId);
    this.#lastSeen.set(key, { position: this.#count, atMs: nowMs });
    for (const wake of this.#waiters.get(key) ?? []) wake();
  }

  /** Resolves once the agent writes on the issue after `position`, or at `untilMs`, or when the daemon stops. */
  waitFor(issueId: string, agentId: string, position: number, untilMs: number): Promise<ExplanationWait> {
    const key = keyOf(issueId, agentId);
    if ((this.#lastSeen.get(key)?.position ?? 0) > position) return Promise.resolve("commented");
    if (this.#signal.aborted) return Promise.resolve("stopped");
    const delayMs = untilMs - this.#now();
    if (delayMs <= 0) return Promise.resolve("timed-out");
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(key) ?? new Set<() => void>();
      this.#waiters.set(key, waiters);
      const end = (how: ExplanationWait) => {
        clearTimeout(timer);
        this.#signal.removeEventListener("abort", onAbort);
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(key);
        resolve(how);
      };
      const wake = () => end("commented");
      const onAbort = () => end("stopped");
      const timer = setTimeout(() => end("timed-out"), delayMs);
      waiters.add(wake);
      this.#signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

function keyOf(issueId: string, agentId: string): string {
  return `${issueId} ${agentId}`;
}
