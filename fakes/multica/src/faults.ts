/** Which requests a fault applies to: an exact pathname or a pattern, and optionally one method. */
export interface FaultTarget {
  path: string | RegExp;
  method?: string;
}

export type FaultAction =
  | { kind: "status"; status: number; retryAfterSeconds?: number; message?: string }
  | { kind: "reset" }
  | { kind: "delay"; delayMs: number }
  /** Answers normally once the hold is released. */
  | { kind: "hold"; released: Promise<void> };

/** Requests held by `Faults.hold`. */
export interface Hold {
  /** Answers every held request, and lets later matching ones through at once. */
  release(): void;
}

interface Fault {
  target: FaultTarget;
  action: FaultAction;
  remaining: number;
}

/**
 * Faults for the next N matching requests (HTTP routes and the `/ws` upgrade alike). The oldest
 * matching fault with requests left wins; `times: Infinity` keeps it until `clear()`.
 */
export class Faults {
  private faults: Fault[] = [];

  /** Answers with an error status (5xx by default: 503) and the tracker's `{"error"}` body. */
  serverError(
    path: FaultTarget["path"],
    options: { times?: number; status?: number; method?: string } = {},
  ): void {
    this.add(
      { path, method: options.method },
      { kind: "status", status: options.status ?? 503 },
      options.times,
    );
  }

  /** Answers 429 with a `Retry-After` header. */
  rateLimit(
    path: FaultTarget["path"],
    options: { times?: number; retryAfterSeconds?: number; method?: string } = {},
  ) {
    this.add(
      { path, method: options.method },
      { kind: "status", status: 429, retryAfterSeconds: options.retryAfterSeconds ?? 1 },
      options.times,
    );
  }

  /** Destroys the connection without an answer (the client sees a network error). */
  reset(path: FaultTarget["path"], options: { times?: number; method?: string } = {}): void {
    this.add({ path, method: options.method }, { kind: "reset" }, options.times);
  }

  /** Answers normally, but only after `delayMs`. */
  slow(path: FaultTarget["path"], delayMs: number, options: { times?: number; method?: string } = {}): void {
    this.add({ path, method: options.method }, { kind: "delay", delayMs }, options.times);
  }

  /**
   * Holds the answers to the next N matching requests until `release()`: they arrive (and are counted in
   * `requests`), then wait. A test sees what a client sends while nothing is answered, without a clock.
   */
  hold(path: FaultTarget["path"], options: { times?: number; method?: string } = {}): Hold {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.add({ path, method: options.method }, { kind: "hold", released }, options.times);
    return { release };
  }

  add(target: FaultTarget, action: FaultAction, times = 1): void {
    this.faults.push({ target, action, remaining: times });
  }

  /** Takes the fault for this request, counting it down; undefined when none applies. */
  take(method: string, path: string): FaultAction | undefined {
    const fault = this.faults.find(
      (candidate) => candidate.remaining > 0 && matches(candidate.target, method, path),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    this.faults = this.faults.filter((candidate) => candidate.remaining > 0);
    return fault.action;
  }

  /** How many faulty answers are still due. */
  get pending(): number {
    return this.faults.reduce((sum, fault) => sum + fault.remaining, 0);
  }

  clear(): void {
    this.faults = [];
  }
}

function matches(target: FaultTarget, method: string, path: string): boolean {
  if (target.method !== undefined && target.method.toUpperCase() !== method) return false;
  return typeof target.path === "string" ? target.path === path : target.path.test(path);
}
